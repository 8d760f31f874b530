const NO_FAILED_JOBS = 'yii2-queue keeps no failed jobs: a job that used its attempts is deleted';

/** What a yii2 connection (stock or redis-ng) lacks, in the words a page shows: the same whether Redis answers or not (lib/layouts/capabilities.ts). */
export const YII2_ABSENT = {
  failedJobs: NO_FAILED_JOBS,
  failedPages: NO_FAILED_JOBS,
  runner: 'yii2 jobs are PHP objects: QueueLens reads and repairs their channels but does not push or run them',
  attention: 'QueueLens does not mark yii2 channels that need attention yet: read the reserved and delayed figures',
  claimRepairs: 'yii2-queue records no holder: a reservation is put back in line or ended instead',
  jobHashFields: 'yii2 jobs have no StaticPHP job hash: their page shows the message decoded, with nothing more to download',
} as const;
