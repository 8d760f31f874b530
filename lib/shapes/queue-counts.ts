/**
 * One queue's figures in the StaticPHP driver's columns (a row of its
 * stats()), which every layout fills the same way: see QueueCounts in
 * lib/layouts/adapter.ts.
 */
export interface QueueStats {
  queue: string;
  pending: number;
  delayed: number;
  reserved: number;
  total: number;
  /** only when the queue's keys could not be read; the counts are then 0 */
  error?: string;
}
