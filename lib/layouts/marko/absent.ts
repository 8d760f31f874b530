/** What a marko connection lacks, in the words a page shows. */
export const MARKO_ABSENT = {
  runner: 'marko jobs are signed PHP objects: QueueLens reads and repairs them but does not push or run them',
  holder: 'marko/queue-redis records no holder: a reservation says only when it expires',
  attention: 'QueueLens does not mark marko queues that need attention yet: read the reserved and delayed figures',
  throughput: 'QueueLens does not sample marko throughput yet: marko/queue-redis records no finished jobs',
  steppedDoctor: 'QueueLens does not check marko queues on this page yet: run queuelens doctor --layout marko --prefix PREFIX',
  failedList: 'QueueLens does not list marko’s failed jobs on this page yet: run queuelens failed --layout marko --prefix PREFIX (and forget), or marko queue:retry ID',
  queueDetail: 'QueueLens does not list a marko queue’s jobs on this page yet: the overview has its counts',
  reservations: 'QueueLens does not list marko reservations on this page yet; marko/queue-redis records no holder, only when a reservation expires',
  delayedTimeline: 'QueueLens does not show a marko queue’s delayed jobs on this page yet: the overview has how many are due',
  jobDetail: 'QueueLens does not show marko jobs on this page yet',
  keyLayout: 'QueueLens does not map marko’s keys yet',
} as const;
