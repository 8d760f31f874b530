/*
 * The reservations page's claim repairs (release, fail, clean up) as the
 * browser and the server both see them: what the operator saw, and what the
 * repair did. StaticPHP's driver records who holds a job; a layout without
 * holders has no such repairs.
 */

/**
 * A held job as an operator saw it on the reservations page. Every repair
 * passes it back to its script, which acts only while the entry is still
 * pending and the hash still says exactly this: a worker completing,
 * releasing or reclaiming the job a moment earlier wins.
 */
export interface SeenReservation {
  queue: string;
  /** the priority level of the stream the entry is in */
  level: string;
  /** the stream entry id */
  entry: string;
  jobId: number;
  /** the hash's fields as stored */
  reservedBy: string;
  reservedUntil: string;
  attempts: string;
}

/** A pending entry whose job is gone, as the operator saw it. */
export interface SeenTombstone {
  queue: string;
  level: string;
  entry: string;
  /** the id the entry names; null when it names none or was deleted from the stream */
  jobId: number | null;
}

/** Why a repair changed nothing: what the script found instead of what the operator saw. */
export type ChangedReason = 'not-pending' | 'claim-changed' | 'entry-changed' | 'job-exists';

/** What a claim repair did: done (with the entry it wrote, where it wrote one), or nothing, and why. */
export type ClaimRepairOutcome = { done: true; entry?: string } | { done: false; reason: ChangedReason; message: string };
