/** What every layout's failed jobs share, for the pages, the actions and the drivers alike. */

/** Ids per REQUEUE or FORGET call: enough to be quick, few enough that no call holds Redis for long. */
export const BATCH_SIZE = 200;

export interface RetryOutcome {
  /** put back on their queue */
  requeued: number[];
  /** not in the failed set when the retry reached them (already retried, forgotten, never failed) */
  notFailed: number[];
  /** in the failed set with no job hash left; removed from it */
  missing: number[];
}

export interface ForgetOptions {
  /** forgetting every failed job must be asked for by name */
  all?: boolean;
}
