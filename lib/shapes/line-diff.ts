/** One line of a diff: kept in both texts, or only in the old or the new one. */
export interface DiffLine {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/** Lines between the common head and tail compared pairwise at most: beyond it the diff is too costly for a browser, and too long to read. */
const MAX_COMPARED_CELLS = 4_000_000;

/**
 * The lines of `before` and `after` as a diff (longest common subsequence),
 * the lines both share at the start and the end kept as they are, so that a
 * small edit of a long text costs little. Null when what differs is too long
 * to compare line by line.
 */
export function lineDiff(before: string, after: string): DiffLine[] | null {
  const old = before.split('\n');
  const now = after.split('\n');
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (tail < old.length - head && tail < now.length - head && old[old.length - 1 - tail] === now[now.length - 1 - tail]) tail++;
  const oldMiddle = old.slice(head, old.length - tail);
  const newMiddle = now.slice(head, now.length - tail);
  if (oldMiddle.length * newMiddle.length > MAX_COMPARED_CELLS) return null;
  const same = (lines: string[]): DiffLine[] => lines.map((text) => ({ kind: 'same', text }));
  return [...same(old.slice(0, head)), ...middleDiff(oldMiddle, newMiddle), ...same(old.slice(old.length - tail))];
}

function middleDiff(old: string[], now: string[]): DiffLine[] {
  // common[i][j]: the longest common subsequence of old[i..] and now[j..].
  const common = Array.from({ length: old.length + 1 }, () => new Uint32Array(now.length + 1));
  for (let i = old.length - 1; i >= 0; i--)
    for (let j = now.length - 1; j >= 0; j--) common[i]![j] = old[i] === now[j] ? common[i + 1]![j + 1]! + 1 : Math.max(common[i + 1]![j]!, common[i]![j + 1]!);
  const lines: DiffLine[] = [];
  let [i, j] = [0, 0];
  while (i < old.length || j < now.length) {
    if (i < old.length && j < now.length && old[i] === now[j]) {
      lines.push({ kind: 'same', text: old[i++]! });
      j++;
    } else if (i < old.length && (j === now.length || common[i + 1]![j]! >= common[i]![j + 1]!)) {
      // Removed lines first, as diffs read.
      lines.push({ kind: 'removed', text: old[i++]! });
    } else {
      lines.push({ kind: 'added', text: now[j++]! });
    }
  }
  return lines;
}
