/** Why no Laravel reservation names its holder, in the words a page shows. */
export const LARAVEL_NO_HOLDER = 'Laravel’s RedisQueue records no holder: a reservation is the payload scored by when it expires';

/** Where stock Laravel keeps failed jobs: not in Redis. */
export const LARAVEL_FAILED_ELSEWHERE =
  'Stock Laravel keeps failed jobs in the application’s database (the failed_jobs table), not in Redis: list and retry them there (php artisan queue:failed, queue:retry); where Horizon runs, name its prefix (horizonPrefix) to read its copies';

/** What a Laravel connection lacks when it names no Horizon prefix: Horizon's copies are the only failed jobs in Redis (./horizon.ts), and its metrics the only count of finished jobs (./throughput.ts). */
export const LARAVEL_WITHOUT_HORIZON_ABSENT = {
  failedJobs: LARAVEL_FAILED_ELSEWHERE,
  failedPages: LARAVEL_FAILED_ELSEWHERE,
  throughput:
    'Stock Laravel records no finished jobs in Redis (its RedisQueue deletes a job when it completes), so QueueLens samples no throughput; where Horizon runs, name its prefix (horizonPrefix) to chart the jobs Horizon counts',
} as const;

/** What a Laravel connection lacks, in the words a page shows: the same whether Redis answers or not (lib/layouts/capabilities.ts). */
export const LARAVEL_ABSENT = {
  runner: 'Laravel jobs are serialized PHP commands: QueueLens reads and repairs them but does not push or run them',
  claimRepairs: LARAVEL_NO_HOLDER,
  jobHashFields: 'Laravel jobs are no StaticPHP job hashes: a job is its payload, shown decoded on its page',
} as const;

/** Why a Laravel job's payload is copied as it is, never edited, in the words the copy dialog shows (Run a copy: JobMessage.copiedAsStored). */
export const LARAVEL_COPY_AS_IS =
  'A Laravel job is copied as stored, with a new id and uuid and 0 attempts: what it does is its data.command, a serialized PHP object (encrypted for a ShouldBeEncrypted job) that an edit here would break, and the fields around it describe that command';
