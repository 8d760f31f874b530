/** The first lines of a text, for a glance: at most `lines` lines and `chars` characters, and whether anything was left out. */
export function leadingLines(text: string, { lines = 6, chars = 800 }: { lines?: number; chars?: number } = {}): { text: string; cut: boolean } {
  const kept = text.replace(/\s+$/, '').split('\n').slice(0, lines).join('\n');
  const short = kept.length > chars ? `${kept.slice(0, chars - 1)}…` : kept;
  return { text: short, cut: short !== text.replace(/\s+$/, '') };
}
