/** A StaticPHP job hash as QueueLens reads and shows it. */

/** What a retry of a failed job hash does (StaticPHP's REQUEUE terms), in the words its job page shows beside Retry. */
export const JOB_HASH_RETRY = 'Puts it back on its own queue at priority 0 with 0 attempts';

/** The fields a push writes, in the spec's order. */
export const JOB_FIELDS = [
  'queue',
  'name',
  'payload',
  'attempts',
  'max_attempts',
  'priority',
  'unique_key',
  'available_at',
  'reserved_until',
  'reserved_by',
  'last_error',
  'created_at',
  'entry',
] as const;

/**
 * A job hash as stored: every value a string, as PHP and Redis spell it. A
 * field missing from the hash reads as ''. fail() adds error and failed_at.
 */
export type JobHash = Record<(typeof JOB_FIELDS)[number], string> & { error?: string; failed_at?: string };
