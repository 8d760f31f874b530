/**
 * Where a page saw a job, for a layout that finds a job by searching its
 * queue's structures (Laravel's, whose jobs have no key of their own) to
 * look there first, so that a job deeper than its look-up's bound is found:
 * in the list of waiting jobs, its index `at` (0 first) from the head (the
 * end workers take jobs from: a page of the line, the job page) or from the
 * tail (the end pushes append to: Find walks lists from there), with the
 * list's `length` then where the page read it (a look-up then tells how
 * far pushes or pops since moved the place); or in a sorted set (delayed,
 * reserved), its score `at`.
 */
export interface SeenPlace {
  from: 'head' | 'tail' | 'score';
  at: number;
  length?: number;
}

const PARAM_PREFIXES = { head: 'h', tail: 't', score: 's' } as const;

/** A SeenPlace as a URL's `near` parameter: `h`, `t` or `s`, then the number, then `of` and the list's length where it is known (`t10of2011`). */
export function seenPlaceParam(place: SeenPlace): string {
  const length = place.from !== 'score' && place.length !== undefined ? `of${place.length}` : '';
  return `${PARAM_PREFIXES[place.from]}${place.at}${length}`;
}

/** A `near` parameter (seenPlaceParam) read back; undefined for anything else. */
export function parseSeenPlace(text: string | undefined): SeenPlace | undefined {
  const match = text === undefined ? null : /^(?:([ht])(\d{1,15})(?:of(\d{1,15}))?|s(-?\d{1,15}))$/.exec(text);
  if (match === null) return undefined;
  if (match[4] !== undefined) return { from: 'score', at: Number(match[4]) };
  const place = { from: match[1] === 'h' ? 'head' : 'tail', at: Number(match[2]) } as const;
  return match[3] === undefined ? place : { ...place, length: Number(match[3]) };
}

/**
 * `items` in an order in which removing each moves no later one's seen
 * place: those seen in a list furthest from its tail first (a removal moves
 * only the places from the tail it is nearer the tail than, and Laravel's
 * look-up counts from the tail), the rest as they were, after them. A place
 * seen from the head is counted from the tail by its list's length; one
 * seen without it (an old link) by its place from the head.
 */
export function furthestPlaceFirst<Item extends { near?: SeenPlace | undefined }>(items: readonly Item[]): Item[] {
  const inList = (item: Item) => item.near !== undefined && item.near.from !== 'score';
  const listed = items.filter(inList).sort((a, b) => placeFromTail(b.near!) - placeFromTail(a.near!));
  return [...listed, ...items.filter((item) => !inList(item))];
}

function placeFromTail({ from, at, length }: SeenPlace): number {
  return from === 'head' && length !== undefined ? length - 1 - at : at;
}

/** Where a job is now, read from the structures that hold ids, not only from its hash. */
export type JobLocation =
  | { state: 'ready'; level: string; entry: string }
  | { state: 'reserved'; level: string; entry: string; reservedBy: string; reservedUntil: number; overdue: boolean; deliveries: number; idleMs: number }
  | { state: 'delayed'; until: number; parked: boolean }
  | { state: 'failed'; failedAt: number }
  /** the hash exists but no stream, delayed set or failed set names it */
  | { state: 'stray' };
