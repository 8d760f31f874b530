/** Where a job is now, read from the structures that hold ids, not only from its hash. */
export type JobLocation =
  | { state: 'ready'; level: string; entry: string }
  | { state: 'reserved'; level: string; entry: string; reservedBy: string; reservedUntil: number; overdue: boolean; deliveries: number; idleMs: number }
  | { state: 'delayed'; until: number; parked: boolean }
  | { state: 'failed'; failedAt: number }
  /** the hash exists but no stream, delayed set or failed set names it */
  | { state: 'stray' };
