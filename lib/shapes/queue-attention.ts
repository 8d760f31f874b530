import type { QueueMark } from '../dashboard/marks';

/** One queue's attention on the overview: its marks, and its failures over its failing window. */
export interface QueueAttention {
  marks: QueueMark[];
  /** `atLeast` when more failed in the window than one read looks at */
  failedRecently: { count: number; minutes: number; atLeast: boolean };
  /** the marks' figures could not be read (a key of the wrong type) */
  error?: string;
}
