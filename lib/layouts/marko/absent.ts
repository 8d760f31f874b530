/** Why no marko reservation names its holder, in the words a page shows. */
export const MARKO_NO_HOLDER = 'marko/queue-redis records no holder: a reservation says only when it expires';

/** What a marko connection lacks, in the words a page shows: the same whether Redis answers or not (lib/layouts/capabilities.ts). */
export const MARKO_ABSENT = {
  runner: 'marko jobs are signed PHP objects: QueueLens reads and repairs them but does not push or run them',
  jobCopies:
    'a marko job’s payload is signed with the application’s key, and its copy needs a new id inside the signed object: marko pushes it again where the application runs (its queue:retry re-signs a failed one)',
  attention: 'QueueLens does not mark marko queues that need attention yet: read the reserved and delayed figures',
  throughput: 'QueueLens does not sample marko throughput yet: marko/queue-redis records no finished jobs',
  claimRepairs: 'marko/queue-redis records no holder: a reservation is put back in line or ended instead',
  jobHashFields: 'marko jobs are no StaticPHP job hashes: their page shows the hash’s fields and the signed payload decoded, with nothing more to download',
} as const;

/**
 * Why QueueLens does not move marko's due jobs itself: the one repair of
 * LineRepairs the layout note (shared/spec/marko-queue-redis-layout.md §4.6)
 * does not count as safe while marko's workers run.
 */
export const MARKO_MOVES_DUE_JOBS =
  'marko’s pop moves every due job into the ready list itself, and its documentation states neither the end of the list they join nor their order; QueueLens leaves that to the next pop rather than guess (Run now makes one job due)';

/** The line repairs (lib/layouts/pages.ts LineRepairs) a marko connection lacks, in the words a page shows. */
export const MARKO_LINE_REPAIRS_ABSENT = { moveDueJobs: MARKO_MOVES_DUE_JOBS } as const;
