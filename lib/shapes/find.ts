/**
 * Find: looking for jobs by id, name, payload or error in any state, in
 * bounded steps (lib/layouts/find-steps.ts). Plain shapes the browser, the
 * API route and the CLI share.
 */

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
