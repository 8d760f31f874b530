import type { DoctorRepair } from '../layouts/staticphp/doctor-repairs';

// The doctor's findings and progress as plain data, shared by the check
// (lib/layouts/staticphp/doctor.ts), the CLI and the browser: no Redis in here.

export type Severity = 'critical' | 'warning' | 'info';

export type FindingKind =
  | 'orphan-job'
  | 'tombstone-entry'
  | 'dangling-entry'
  | 'dangling-delayed'
  | 'dangling-failed'
  | 'wrong-unique'
  | 'level-without-stream'
  | 'invalid-payload'
  | 'seq-behind'
  | 'wrong-type';

/**
 * One thing the doctor found wrong. Every layout's doctor reports in this
 * shape, with its own kinds and repairs (StaticPHP's are the defaults), so
 * the doctor page and the CLI show any layout's findings alike.
 */
export interface Finding<Kind extends string = FindingKind, Repair = DoctorRepair> {
  kind: Kind;
  severity: Severity;
  /** the job id it concerns, when it concerns a job */
  jobId?: number;
  /** the key it concerns */
  key: string;
  /**
   * what exactly it is about, unique among the findings of its kind: the key,
   * or the key and the stream entry or set member inside it (one stream holds
   * many tombstones, one failed set many dangling ids)
   */
  subject: string;
  /** what is wrong, in plain words */
  explanation: string;
  /** what the repair would change (the dry run), or why there is none */
  repairDescription: string;
  /** null: reported only */
  repair: Repair | null;
}

/** Each kind's severity and title, for grouping and for the CLI. */
export const FINDING_KINDS: Record<FindingKind, { severity: Severity; title: string }> = {
  'seq-behind': { severity: 'critical', title: 'queue:seq is behind the highest job id' },
  'wrong-type': { severity: 'critical', title: 'Keys of the wrong type' },
  'orphan-job': { severity: 'warning', title: 'Jobs nothing points at' },
  'invalid-payload': { severity: 'warning', title: 'Payloads that are not JSON' },
  'wrong-unique': { severity: 'warning', title: 'Unique keys held by the wrong job' },
  'tombstone-entry': { severity: 'info', title: 'Stream entries whose job is gone' },
  'dangling-entry': { severity: 'info', title: 'Jobs whose entry field names no entry' },
  'dangling-delayed': { severity: 'info', title: 'Delayed members that are no job id' },
  'dangling-failed': { severity: 'info', title: 'Failed ids whose job is gone' },
  'level-without-stream': { severity: 'info', title: 'Levels without a stream' },
};

/**
 * How a finding is told apart from another: by what it is about, so every
 * broken thing is one finding, and the same thing found twice (SCAN may
 * return a key twice) is still one.
 */
export function findingId(finding: Finding<string, unknown>): string {
  return `${finding.kind}\u0000${finding.subject}`;
}

export interface QueueInfo {
  name: string;
  /** the levels whose stream exists and is a stream, lowest first */
  levels: string[];
  delayed: number;
  delayedReadable: boolean;
}

export type Phase = 'layout' | 'queues' | 'streams' | 'delayed' | 'failed' | 'jobs' | 'unique' | 'finish' | 'done';

/**
 * Where a check is between two steps. Plain data: the dashboard keeps it in
 * the browser and sends it back for the next step, so no step holds state on
 * the server.
 */
export interface DoctorState {
  phase: Phase;
  /** SCAN/SSCAN cursor, range offset or stream id, depending on the phase */
  cursor: string;
  /** which queue (or stream) of `queues` the phase is at */
  index: number;
  /** the sub-index: the level within the queue, for the streams phase */
  subIndex: number;
  queues: QueueInfo[];
  /** the highest id of any j:{id} key */
  highestId: number;
  /** queue:seq as read at the start; null when absent, NaN-free */
  seq: number | null;
  seqReadable: boolean;
  queuesReadable: boolean;
  failedReadable: boolean;
  /** how many keys, entries and ids the check has looked at */
  examined: number;
  steps: number;
}

export function startDoctor(): DoctorState {
  return {
    phase: 'layout',
    cursor: '0',
    index: 0,
    subIndex: 0,
    queues: [],
    highestId: 0,
    seq: null,
    seqReadable: true,
    queuesReadable: true,
    failedReadable: true,
    examined: 0,
    steps: 0,
  };
}

const PHASE_LABELS: Record<Phase, string> = {
  layout: 'the shared keys',
  queues: 'the registered queues',
  streams: 'the streams',
  delayed: 'the delayed sets',
  failed: 'the failed set',
  jobs: 'the job hashes',
  unique: 'the unique keys',
  finish: 'the id counter',
  done: 'done',
};

/** What a state is doing, for a progress line. */
export function describeProgress(state: DoctorState): string {
  return state.phase === 'done'
    ? `Checked ${state.examined} keys and entries`
    : `Checking ${PHASE_LABELS[state.phase]} (${state.examined} keys and entries so far)`;
}
