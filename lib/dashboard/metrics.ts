import type { ThroughputSample } from '../shapes/throughput';
import { isAbsent, type ThroughputSource } from '../layouts/adapter';
import { thresholdsFor, type AlertRules } from './alerts';
import { markThresholdsFor, type MarkRules, type MarkThresholds, type QueueMark } from './marks';

/** The Content-Type of Prometheus' text exposition format. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

export interface MetricsInput {
  /** the connection the figures are read on, a label of every series */
  connection: string;
  /** a fresh sample: backlog, wait and the cumulative counters */
  sample: ThroughputSample;
  /** what the counters count on the connection's layout, for the HELP lines */
  meaning: ThroughputSource['meaning'];
  /** failures per queue counted by the sampler since it began (history.ts), and the failed set's size; null where the layout keeps no failed jobs */
  failures: { totals: ReadonlyMap<string, number>; jobs: number } | null;
  /** false where the layout cannot tell how long a job has waited: no wait series then */
  waitSampled: boolean;
  /** the connection's alert thresholds, exported beside the figures they limit */
  alerts: AlertRules;
  /** the marks each queue has now, and the connection's mark thresholds; null where the layout judges no marks */
  marks: { now: ReadonlyMap<string, readonly QueueMark['kind'][]>; rules: MarkRules } | null;
}

/** Each mark as its series' `mark` label spells it, with the threshold that switches it off. */
const MARK_LABELS: Readonly<Record<QueueMark['kind'], { label: string; threshold: keyof MarkThresholds }>> = {
  noWorker: { label: 'no_worker', threshold: 'noWorkerSeconds' },
  stuck: { label: 'stuck', threshold: 'stuckSeconds' },
  failing: { label: 'failing', threshold: 'failingMinutes' },
  overdueDelayed: { label: 'overdue_delayed', threshold: 'overdueDelayedSeconds' },
};

/**
 * queuelens_queue_mark: 1 where the queue has the mark the overview shows,
 * 0 where it has not; no series for a mark switched off for that queue, so
 * an alert on it never reads "fine" for a mark nobody judges.
 */
function markFamily(connection: string, queues: ThroughputSample['queues'], marks: NonNullable<MetricsInput['marks']>): Family {
  return {
    name: 'queuelens_queue_mark',
    type: 'gauge',
    help: 'Whether the overview marks the queue as needing attention, by mark: no_worker, stuck, failing, overdue_delayed (1 marked, 0 not).',
    samples: queues.flatMap((row) => {
      if (row.error !== undefined) return [];
      const thresholds = markThresholdsFor(marks.rules, row.queue);
      const has = marks.now.get(row.queue) ?? [];
      return (Object.entries(MARK_LABELS) as [QueueMark['kind'], (typeof MARK_LABELS)[QueueMark['kind']]][])
        .filter(([, { threshold }]) => thresholds[threshold] !== false)
        .map(([kind, { label }]) => ({ labels: { connection, queue: row.queue, mark: label }, value: has.includes(kind) ? 1 : 0 }));
    }),
  };
}

interface Family {
  name: string;
  type: 'gauge' | 'counter';
  help: string;
  samples: { labels: Record<string, string>; value: number }[];
}

/** A label value as the format wants it: backslash, double quote and newline escaped. Queue names are whatever producers wrote. */
export function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

function formatValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return String(value);
}

function formatFamily({ name, type, help, samples }: Family): string {
  const lines = [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`];
  for (const { labels, value } of samples) {
    const pairs = Object.entries(labels).map(([label, text]) => `${label}="${escapeLabelValue(text)}"`);
    lines.push(`${name}{${pairs.join(',')}} ${formatValue(value)}`);
  }
  return lines.join('\n');
}

/**
 * Every queue's figures in the Prometheus text format (0.0.4): gauges for
 * the backlog and the wait, counters for entries pushed to and processed
 * from the ready streams (from `entries-added`, so absent before Redis 7.0;
 * Prometheus reads a counter going down, a stream made again, as a reset)
 * and for failures. Per-queue failures are the sampler's count: the failed
 * set does not say which queue a member belongs to without reading every
 * job, so its size is one gauge for all queues. A layout that keeps no
 * failed jobs, or cannot tell a wait, has those series left out rather than
 * shown as zeros. A queue's alert thresholds
 * are gauges too, only where set, so an alerting rule can compare the
 * figures with the limits the overview uses; and so are the overview's marks,
 * so Alertmanager can page on "stuck" or "no worker" as the page shows them.
 */
export function formatMetrics({ connection, sample, meaning, failures, waitSampled, alerts, marks }: MetricsInput): string {
  const perQueue = (name: string, type: Family['type'], help: string, value: (row: ThroughputSample['queues'][number]) => number | null): Family => ({
    name,
    type,
    help,
    samples: sample.queues.flatMap((row) => {
      const figure = value(row);
      return figure === null || row.error !== undefined ? [] : [{ labels: { connection, queue: row.queue }, value: figure }];
    }),
  });
  const sumStreams = (row: ThroughputSample['queues'][number], of: (stream: { added: number; length: number }) => number) =>
    sample.countersAvailable ? row.streams.reduce((sum, stream) => sum + of({ added: stream.added ?? 0, length: stream.length }), 0) : null;
  const families: (Family | null)[] = [
    perQueue('queuelens_queue_pending', 'gauge', 'Jobs ready to run: in a stream and not handed out, or delayed and due.', (row) => row.pending),
    perQueue('queuelens_queue_delayed', 'gauge', 'Delayed jobs not due yet.', (row) => row.delayed),
    perQueue('queuelens_queue_reserved', 'gauge', 'Jobs handed to a worker and not settled.', (row) => row.reserved),
    waitSampled
      ? perQueue(
          'queuelens_queue_wait_seconds',
          'gauge',
          'How long the oldest job ready and not handed out has waited; 0 when none waits.',
          (row) => row.waitSeconds ?? 0,
        )
      : null,
    isAbsent(meaning.pushed) ? null : perQueue('queuelens_queue_pushed_total', 'counter', meaning.pushed, (row) => sumStreams(row, (stream) => stream.added)),
    perQueue('queuelens_queue_processed_total', 'counter', meaning.processed, (row) => sumStreams(row, (stream) => stream.added - stream.length)),
    failures && {
      name: 'queuelens_queue_failed_total',
      type: 'counter',
      help: 'Jobs of the queue that failed, as counted by the throughput sampler since its history began.',
      samples: [...failures.totals].sort(([a], [b]) => (a < b ? -1 : 1)).map(([queue, value]) => ({ labels: { connection, queue }, value })),
    },
    waitSampled
      ? perQueue(
          'queuelens_queue_alert_wait_seconds',
          'gauge',
          'The wait over which the overview flags the queue (its alert threshold).',
          (row) => thresholdsFor(alerts, row.queue).waitSeconds ?? null,
        )
      : null,
    perQueue(
      'queuelens_queue_alert_backlog',
      'gauge',
      'The backlog (pending, delayed and reserved) over which the overview flags the queue (its alert threshold).',
      (row) => thresholdsFor(alerts, row.queue).backlog ?? null,
    ),
    failures && {
      name: 'queuelens_failed_jobs',
      type: 'gauge',
      help: 'Jobs in the failed set, every queue together.',
      samples: [{ labels: { connection }, value: failures.jobs }],
    },
    marks && markFamily(connection, sample.queues, marks),
  ];
  return `${families
    .filter((family): family is Family => family !== null)
    .map(formatFamily)
    .join('\n')}\n`;
}
