/**
 * Find: looking for jobs by id, name, payload or error in any state, in
 * bounded steps (lib/layouts/find-steps.ts). Plain shapes the browser, the
 * API route and the CLI share.
 */

import type { SeenPlace } from './job-location';

/** What part of a job the text is looked for in; `any` is every one of them. */
export const FIND_FIELDS = ['any', 'id', 'name', 'payload', 'error'] as const;
export type FindField = (typeof FIND_FIELDS)[number];

/** The states a search can be scoped to; a layout searches those it has (JobFinder.states). */
export const FIND_STATES = ['ready', 'delayed', 'reserved', 'failed'] as const;
export type FindState = (typeof FIND_STATES)[number];

/** Longest text a search takes: a needle is sent with every step. */
export const MAX_FIND_TEXT = 200;

export interface FindQuery {
  /** matched byte for byte (UTF-8), case-sensitive unless `ignoreCase`; an id must be equal, every other field contains it */
  text: string;
  /**
   * ASCII letters match in either case (A–Z ≡ a–z); every other byte still
   * matches exactly, so É and é differ (folding UTF-8 letters would mean
   * decoding every payload). Never an id's: an id is equal or nothing.
   */
  ignoreCase: boolean;
  field: FindField;
  /** one queue (a yii2 channel), or null for every queue */
  queue: string | null;
  /** the states to look in; empty means every state the layout has */
  states: readonly FindState[];
  /**
   * Only jobs whose state's time (JobFinder.times: when it failed, when it
   * is due, …) is at or after `from` and before `until`, in Unix ms, either
   * open (null). A ranged search looks only in the states whose index
   * records a time; left out: no range.
   */
  range?: FindRange;
}

/** A time range, half-open: from ≤ time < until, Unix ms; null is open on that side. */
export interface FindRange {
  from: number | null;
  until: number | null;
}

/** A range that bounds nothing is no range. */
export function isRanged(range: FindRange | undefined): range is FindRange {
  return range !== undefined && (range.from !== null || range.until !== null);
}

/**
 * The time each state's index records, as the page names it ("when it
 * failed"); a state left out records none, so a ranged search leaves it out.
 */
export type FindTimes = Readonly<Partial<Record<FindState, string>>>;

/**
 * What a ranged search does with each state it would look in: `applies` the
 * states whose time it filters by (each with the time's name), `leftOut`
 * those that record no time and so are not searched. Both empty without a
 * range. The page and the CLI print it, so no job is dropped unsaid.
 */
export function rangeScope(
  query: Pick<FindQuery, 'states' | 'range'>,
  layoutStates: readonly FindState[],
  times: FindTimes,
): { applies: { state: FindState; time: string }[]; leftOut: FindState[] } {
  if (!isRanged(query.range)) return { applies: [], leftOut: [] };
  const looked = FIND_STATES.filter((state) => layoutStates.includes(state) && (query.states.length === 0 || query.states.includes(state)));
  return {
    applies: looked.flatMap((state) => (times[state] === undefined ? [] : [{ state, time: times[state] }])),
    leftOut: looked.filter((state) => times[state] === undefined),
  };
}

/** rangeScope in words: "The time range applies to …; ready records no time here and is left out." */
export function describeRangeScope(scope: ReturnType<typeof rangeScope>): string {
  const applies = scope.applies.map(({ state, time }) => `${state} (${time})`).join(', ');
  const sentences = [scope.applies.length > 0 ? `The time range applies to ${applies}.` : 'No state this search looks in records a time: it finds nothing.'];
  if (scope.leftOut.length > 0)
    sentences.push(
      `${scope.leftOut.join(' and ')} ${scope.leftOut.length === 1 ? 'records' : 'record'} no time on this layout and ${scope.leftOut.length === 1 ? 'is' : 'are'} left out of a ranged search.`,
    );
  return sentences.join(' ');
}

/** A range in the address and the CLI: a UTC minute or second, `2026-12-05T12:00Z` or `2026-12-05T12:00:30Z`. */
export const FIND_TIME_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?Z$/;

/** `text` as Unix ms when it is a time as FIND_TIME_PATTERN spells it (a real date, 1970 or later); null otherwise. */
export function parseFindTime(text: string): number | null {
  if (!FIND_TIME_PATTERN.test(text)) return null;
  const ms = Date.parse(text);
  // Date.parse rolls 2026-02-30 over to March: a date that does not round-trip is no date.
  return Number.isFinite(ms) && ms >= 0 && findTimeText(ms) === text.replace(/(T\d{2}:\d{2}):00Z$/, '$1Z') ? ms : null;
}

/** Unix ms as the address spells a range's end: UTC, to the minute, or the second where it has one. */
export function findTimeText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace(/:00$/, '') + 'Z';
}

/** Matches a page lists at most; a search that finds more stops listing, and an operator may act on every match (components/find/every-match-actions.tsx). */
export const FIND_MATCH_CAP = 500;

/** One job that matches, as a results row shows it. */
export interface FindMatch {
  id: string;
  queue: string;
  state: FindState;
  /** why the id is shown but neither linked nor acted on (a Laravel payload that names no id); left out when it can be */
  idNote?: string;
  /** the job's name or class; '' when it cannot be read */
  name: string;
  /** the field the text was found in */
  field: Exclude<FindField, 'any'>;
  /** the match with some bytes either side, as text (bytes that are no UTF-8 as \xNN escapes) */
  snippet: { before: string; match: string; after: string };
  /** where it was found in its queue's list, where the layout searches its list to look a job up (Laravel): its page and a removal look there */
  near?: SeenPlace;
}

/**
 * The matches of a step not listed by an earlier one (`seen` keeps what was
 * listed): a list is walked from its tail, and a job pushed meanwhile moves
 * the unread ones a place, so a job read already may come again
 * (lua/includes/find.lua). A job is its queue, state and id; one that names
 * no id is never taken for another.
 */
export function unseenMatches(seen: Set<string>, matches: readonly FindMatch[]): FindMatch[] {
  return matches.filter((match) => {
    if (match.id === '') return true;
    const key = JSON.stringify([match.queue, match.state, match.id]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What one step answers: the matches it found, how far the search is, and where the next step starts (null: done). */
export interface FindStep {
  matches: FindMatch[];
  /** jobs looked at so far, in all steps */
  looked: number;
  /** about how many jobs the search looks at in all (the scoped figures when it began) */
  about: number;
  cursor: string | null;
}

/** What an operator can do to every match of a search, beyond the matches a page lists. */
export const EVERY_MATCH_ACTIONS = ['retry', 'forget', 'remove'] as const;
export type EveryMatchAction = (typeof EVERY_MATCH_ACTIONS)[number];

/**
 * The states each acts on, and so the only states its search walks: a job
 * acted on leaves them (a retried job is failed no more, a removed one is
 * gone), so the walk never meets it again.
 */
export const EVERY_MATCH_STATES: Readonly<Record<EveryMatchAction, readonly FindState[]>> = {
  retry: ['failed'],
  forget: ['failed'],
  remove: ['ready', 'delayed', 'reserved'],
};

/** One step of acting on every match: what its find steps looked at and found, and what became of the matches. */
export interface EveryMatchStep {
  /** where the next step starts; null: the search is done */
  cursor: string | null;
  /** how many jobs this step's matches took out of the index the search last read: the next step's `taken` */
  taken: number;
  /** jobs looked at so far, in all steps, and about how many the search looks at */
  looked: number;
  about: number;
  /** matches this step found */
  matched: number;
  /** retried, forgotten or removed */
  acted: number;
  /** no longer where they were found (retried, forgotten or removed meanwhile, or run): counted, not changed */
  movedOn: number;
  /** left alone because the layout refuses them (a Horizon record naming no queue, a job whose id cannot be acted on) */
  refused: number;
  /** why the first refusal, in words a page shows; null when none */
  why: string | null;
  /** the queues of the jobs acted on */
  queues: string[];
}

/**
 * A forget or remove step that did not start because the Trash is too full
 * to keep all it might take: going on would drop the oldest jobs it holds
 * for good. `held` of `max` jobs; the operator decides.
 */
export interface TrashFull {
  held: number;
  max: number;
}
