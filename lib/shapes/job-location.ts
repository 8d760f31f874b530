/**
 * Where a page saw a job in a queue's list of waiting jobs: its index, 0
 * first, from the head (the end workers take jobs from: a page of the line,
 * the job page) or from the tail (the end pushes append to: Find walks lists
 * from there). A layout that looks a job up by searching its list
 * (Laravel's, whose jobs have no key) starts near it, so that a job deeper
 * than its look-up's bound is found where it was seen.
 */
export interface ListPlace {
  from: 'head' | 'tail';
  index: number;
}

/** A line row's place (1 runs next) as a ListPlace. */
export function placeInLine(place: number): ListPlace {
  return { from: 'head', index: place - 1 };
}

/** A ListPlace as a URL's `near` parameter: `h` or `t`, then the index. */
export function listPlaceParam(place: ListPlace): string {
  return `${place.from === 'head' ? 'h' : 't'}${place.index}`;
}

/** A `near` parameter (listPlaceParam) read back; undefined for anything else. */
export function parseListPlace(text: string | undefined): ListPlace | undefined {
  const match = text === undefined ? null : /^([ht])(\d{1,9})$/.exec(text);
  return match ? { from: match[1] === 'h' ? 'head' : 'tail', index: Number(match[2]) } : undefined;
}

/** Where a job is now, read from the structures that hold ids, not only from its hash. */
export type JobLocation =
  | { state: 'ready'; level: string; entry: string }
  | { state: 'reserved'; level: string; entry: string; reservedBy: string; reservedUntil: number; overdue: boolean; deliveries: number; idleMs: number }
  | { state: 'delayed'; until: number; parked: boolean }
  | { state: 'failed'; failedAt: number }
  /** the hash exists but no stream, delayed set or failed set names it */
  | { state: 'stray' };
