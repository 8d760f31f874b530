/** What every layout's failed jobs share, for the pages, the actions and the drivers alike. */

/** Ids per REQUEUE or FORGET call: enough to be quick, few enough that no call holds Redis for long. */
export const BATCH_SIZE = 200;

/** The longest payload a failed job's page offers to edit (one it shows whole: 64 KiB), and the longest edit it sends back, in characters. */
export const EDITABLE_PAYLOAD_BYTES = 64 * 1024;

/** What StaticPHP's driver did with each id it was asked to requeue (its ids are whole numbers). */
export interface RequeueOutcome<Id extends number | string = number> {
  /** put back on their queue */
  requeued: Id[];
  /** not in the failed set when the retry reached them (already retried, forgotten, never failed) */
  notFailed: Id[];
  /** in the failed set with no job (hash, record) left; removed from it */
  missing: Id[];
  /** the queues the requeued jobs went back to, each once: what the retry touched */
  queues: string[];
}

/** What a retry did, by the ids as the failed list shows them, for every layout QueueLens retries. */
export interface RetryOutcome extends RequeueOutcome<string> {
  /** still failed and not retried, with why in words a page shows (a Horizon record naming no queue, a retry of it not yet run) */
  refused: { id: string; why: string }[];
}

export interface ForgetOptions {
  /** forgetting every failed job must be asked for by name */
  all?: boolean;
}

/**
 * A failed job as the failed list shows it, for every layout that keeps
 * failed jobs; a field missing from the record reads as ''. The id is text:
 * StaticPHP's are decimal, marko's the application's UUIDs.
 */
export interface FailedRowView {
  id: string;
  /**
   * false for a StaticPHP id past 2^53, which a JS number would round to a
   * neighbour's: such a row is shown with a note, never linked, selected or
   * acted on (see JobIdAsRead)
   */
  exact: boolean;
  queue: string;
  name: string;
  attempts: string;
  maxAttempts: string;
  /** failed_at as stored, `Y-m-d H:i:s` UTC */
  failedAt: string;
  /** the failed set's score: when it failed, unix seconds */
  failedAtSeconds: number;
  /** the first line of error, cut for a table cell */
  errorFirstLine: string;
  /** the shell command that retries it where the application runs; null where QueueLens retries it itself */
  retryCommand: string | null;
}

export interface FailedPage {
  rows: FailedRowView[];
  /** the failed set's size */
  total: number;
  offset: number;
  limit: number;
}

export interface FailedFilter {
  /** exact queue name */
  queue?: string;
  /** part of the job name, any case */
  name?: string;
  /** part of the error text, any case */
  error?: string;
}

export interface FailedSearchChunk {
  matches: FailedRowView[];
  /** where the next chunk starts in the failed set, newest first */
  nextOffset: number;
  /** failed-set entries this chunk looked at */
  scanned: number;
  total: number;
  /** the end of the failed set was reached */
  done: boolean;
}

const FIRST_LINE_LIMIT = 300;

/** The first line of an error, cut for a table cell or a mark. */
export function firstLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > FIRST_LINE_LIMIT ? `${line.slice(0, FIRST_LINE_LIMIT - 1)}…` : line;
}
