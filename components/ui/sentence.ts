/** A clause (as layouts word their whys, lower-case first) as the start of a sentence. */
export function sentence(clause: string): string {
  return clause.charAt(0).toUpperCase() + clause.slice(1);
}
