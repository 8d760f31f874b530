/** A StaticPHP job hash as QueueLens reads and shows it. */

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
