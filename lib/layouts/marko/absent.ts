/** What a marko connection lacks, in the words a page shows. */
export const MARKO_ABSENT = {
  runner: 'marko jobs are signed PHP objects: QueueLens reads and repairs them but does not push or run them',
  holder: 'marko/queue-redis records no holder: a reservation says only when it expires',
} as const;
