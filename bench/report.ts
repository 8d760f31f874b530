import { cpus } from 'node:os';

/** Cores, CPU model, Node version and the date: what a reader needs before comparing one run with another. */
export function describeMachine(): string {
  return `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/** A count with thousands separators, as the README's tables show them. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en');
}

/** A Markdown table, so that a run's output can be pasted into the README as it is. `align` is one character per column: l or r. */
export function markdownTable(header: readonly string[], align: string, rows: readonly (readonly string[])[]): string {
  const rule = [...align].map((side) => (side === 'r' ? '---:' : '---'));
  return [header, rule, ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
}
