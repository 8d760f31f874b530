/**
 * The line repairs (lib/layouts/pages.ts LineRepairs) a StaticPHP connection
 * lacks, in the words a page shows: its reservations name their holder, so
 * they are released or failed from the holder's row (claimRepairs), and its
 * driver has no script that takes a waiting job out of its stream.
 */
export const STATICPHP_LINE_REPAIRS_ABSENT = {
  remove: 'StaticPHP QueueRedis has no remove: a waiting job runs, or is failed from its reservation and then forgotten',
  releaseExpired: 'A StaticPHP reservation names its holder: release it from its row on the reservations page',
  reclaim: 'A StaticPHP reservation names its holder: release or fail it from its row on the reservations page',
} as const;

/** What a StaticPHP connection lacks, in the words a page shows (lib/layouts/capabilities.ts). */
export const STATICPHP_ABSENT = {
  // QueueLens runs StaticPHP's jobs itself: a copy is a push (runner), made from the job page's Run a copy… with every field editable.
  jobCopies: 'StaticPHP jobs are copied with Push a job: Run a copy… on a job’s page fills it in from the job',
} as const;
