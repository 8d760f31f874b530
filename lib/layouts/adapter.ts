import type { QueueAttention } from '../shapes/queue-attention';
import type { MarkRules } from '../dashboard/marks';
import type { JobRow } from './staticphp/job';
import type { ThroughputSample } from '../shapes/throughput';
import type { RedisQueue } from './staticphp/redis-queue';
import type { QueueStats } from '../shapes/queue-counts';
import type { ForgetOptions, RetryOutcome } from '../shapes/failed-jobs';
import type { RestoredJob, TrashFilter, TrashPage, TrashSettings, TrashWrite } from '../shapes/trash';
import type { RedisConnection } from '../redis/connection';
import type { LayoutDoctor } from './layout-doctor';
import type { SeenPlace } from '../shapes/job-location';
import type {
  ClaimRepairs,
  DueTimelineReader,
  ExpiringReservationsReader,
  FailedJobRetry,
  FailedPagesReader,
  JobHashFields,
  JobFinder,
  JobLineReader,
  JobSnapshotReader,
  KeyTableReader,
  LineRepairs,
} from './pages';

/** The queue layouts QueueLens reads: the PHP driver whose keys a connection holds. */
export const LAYOUT_NAMES = ['staticphp', 'yii2', 'yii2-ng', 'marko', 'laravel'] as const;
export type LayoutName = (typeof LAYOUT_NAMES)[number];

/** Each layout's driver as an operator knows it, for the header and the connection switcher. */
export const LAYOUT_TITLES: Readonly<Record<LayoutName, string>> = {
  staticphp: 'StaticPHP QueueRedis',
  yii2: 'yii2-queue',
  'yii2-ng': 'yii2-queue-redis-ng',
  marko: 'marko/queue-redis',
  laravel: 'Laravel Redis queue',
};

/**
 * What a layout cannot do, in the words a page or the CLI shows instead of
 * the feature. A capability is either there or one of these, so that every
 * caller has to handle its absence (bull-board's adapters throw at run time
 * instead).
 */
export interface Absent {
  readonly absent: string;
}

export function isAbsent(capability: object | string): capability is Absent {
  return typeof capability === 'object' && 'absent' in capability;
}

/**
 * The members a layout (or its line repairs) lacks, from one table of member
 * and sentence, so that an adapter says what it cannot do once instead of
 * member by member, and lib/layouts/capabilities.ts answers the same from
 * the table without Redis.
 */
export function absentMembers<const Names extends string>(sentences: Readonly<Record<Names, string>>): Record<Names, Absent> {
  return Object.fromEntries(Object.entries<string>(sentences).map(([name, absent]) => [name, { absent }])) as Record<Names, Absent>;
}

/**
 * One queue's figures (a yii2 channel is one queue), in the StaticPHP
 * driver's columns, which every layout fills the same way: pending can run
 * now (due delayed jobs included), delayed waits for its time, reserved was
 * handed to a worker and not settled (expired claims included, as the
 * StaticPHP driver counts them). A layout adds the columns its own driver
 * reports.
 */
export type QueueCounts = QueueStats;

/** Which queues QueueLayout.counts reads. */
export interface CountsOptions {
  /** every queue the layout knows, empty ones with zeros (the overview's rows must not come and go) */
  everyQueue?: boolean;
  /**
   * only these queues, each with zeros when it has no jobs (a refresh of what
   * a change touched); a layout that knows a fixed set of queues may leave
   * out names it does not know. `failed` is still over every queue.
   */
  only?: readonly string[];
}

export interface LayoutCounts<Row extends QueueCounts = QueueCounts> {
  queues: Row[];
  /** failed jobs over every queue; null where the layout keeps none */
  failed: number | null;
}

/** What counts() reads of some queues, with what needs attention in each of them, in the same order. */
export interface JudgedCounts extends LayoutCounts {
  /** the server's clock the marks were judged by, unix seconds */
  now: number;
  attention: QueueAttention[];
}

/**
 * What needs attention in each queue (the overview's marks), judged against
 * the connection's thresholds, with the counts they are judged from: the
 * queues `options` names, as counts() reads them, in one pass where the
 * layout reads both from the same keys.
 */
export interface Attention {
  read(options: CountsOptions, rules: MarkRules): Promise<JudgedCounts>;
}

/** Judges the rows of one counts() read, in order: a layout's marks read apart from its counts. */
export type JudgeCounts = (counts: readonly QueueCounts[], failed: number, rules: MarkRules) => Promise<{ now: number; queues: QueueAttention[] }>;

/** The Attention of a layout whose marks are read after its counts, from keys of their own. */
export function attentionAfterCounts(counts: QueueLayout['counts'], judge: JudgeCounts): Attention {
  return {
    async read(options, rules) {
      const counted = await counts(options);
      const { now, queues } = await judge(counted.queues, counted.failed ?? 0, rules);
      return { ...counted, now, attention: queues };
    },
  };
}

/** Why QueueLens does not retry a layout's failed jobs, and the command that does, where the application runs. */
export interface RetryElsewhere extends Absent {
  /** the shell commands that retry these failed jobs (null: every one) */
  commandsFor(ids: readonly string[] | null): string[];
}

/**
 * One step of "retry every failed job": what it did, how many failed jobs
 * it looked at, how many are left to look at, and where the next step goes
 * on (null: from the oldest again, where retried jobs leave the list, as
 * StaticPHP's do; Horizon keeps them, so its steps go on past them).
 */
export type RetryStep = RetryOutcome & { looked: number; remaining: number; next: string | null };

/** What an edit-and-retry did: `retried`, or why not. */
export type EditRetryOutcome = 'retried' | 'not-failed' | 'changed' | 'missing';

/**
 * Failed jobs QueueLens retries itself, by their ids as the failed list
 * shows them (text): each layout checks its own ids (StaticPHP's are whole
 * numbers) and answers an id it does not take with a QueueError.
 */
export interface FailedRetries {
  /** retries these ids (the selected rows), in bounded script calls; an id no longer failed is reported, never retried */
  ids(ids: readonly string[], options?: { maxAttempts?: number }): Promise<RetryOutcome>;
  /** one bounded step of "retry every failed job", oldest first, from where the step before said to go on (`next`; none: the oldest) */
  readonly oldest: ((options?: { maxAttempts?: number; from?: string | null }) => Promise<RetryStep>) | Absent;
  /** whether a retry can set the job's max attempts (StaticPHP's), or why not */
  readonly maxAttempts: true | Absent;
  /** what a retry does to the job, in the words the job page's Retry shows beside its button */
  readonly whatItDoes: string;
  /** replaces the job's payload with `edited` and retries it, only while it is still failed with the payload `seen` (null: not checked) */
  readonly editAndRetry:
    | ((
        id: string,
        seen: string | null,
        edited: string,
        options?: { maxAttempts?: number; trash?: TrashWrite },
      ) => Promise<{ outcome: EditRetryOutcome; kept: boolean; queue: string | null }>)
    | Absent;
}

/** A failed job as a layout's failedRows lists it: the StaticPHP row's columns that fit, with the id as its driver spells it. */
export type TextIdFailedRow = Pick<JobRow, 'queue' | 'name' | 'attempts' | 'max_attempts' | 'failed_at' | 'error'> & { id: string };

/**
 * Failed jobs kept in Redis: listed and forgotten by every layout that keeps
 * them, retried by QueueLens where it can re-create the job (`retryFailed`),
 * and otherwise the command that retries them where the application runs
 * (marko signs its jobs with the application's key). Ids are text, as the
 * failed list shows them; each layout checks its own.
 */
export interface FailedJobs {
  failedCount(): Promise<number>;
  failedRows(limit: number, offset?: number): Promise<(TextIdFailedRow | JobRow)[]>;
  /** `trash` is kept where the layout has a trash (QueueLayout.trash), and unused where it has none */
  forgetFailed(id: string | null, before: string | null, options?: ForgetOptions, trash?: TrashWrite): Promise<number>;
  /** forgets these ids (the selected rows); ids no longer failed are left alone; how many were forgotten */
  forgetFailedIds(ids: readonly string[], trash?: TrashWrite): Promise<number>;
  /** one bounded step of forgetting every failed job (or those failed before `before`, Y-m-d[ H:i:s] UTC), oldest first; `remaining` is what is left to forget */
  forgetOldestFailed(before: string | null, trash?: TrashWrite): Promise<{ forgotten: number; remaining: number }>;
  /** how many failed jobs a forget would touch: every one, or those failed before `before` */
  countFailedBefore(before: string | null): Promise<number>;
  readonly retryFailed: FailedRetries | RetryElsewhere;
}

/** How a job page offers failed job `id`'s retry (lib/layouts/pages.ts FailedJobRetry). */
export function retryOfFailedJob(retry: FailedRetries | RetryElsewhere, id: string): FailedJobRetry {
  if (isAbsent(retry)) return { here: false, command: retry.commandsFor([id])[0]!, why: retry.absent };
  return { here: true, whatItDoes: retry.whatItDoes, maxAttempts: retry.maxAttempts === true };
}

/** Failed jobs QueueLens retries itself. */
export type RetriedFailedJobs = FailedJobs & { readonly retryFailed: FailedRetries };

/** Failed jobs QueueLens lists and forgets but cannot retry: the application re-creates them. */
export type UnretriedFailedJobs = FailedJobs & { readonly retryFailed: RetryElsewhere };

/** Whether QueueLens retries these failed jobs itself. */
export function retriesFailedJobs(failedJobs: FailedJobs): failedJobs is RetriedFailedJobs {
  return !isAbsent(failedJobs.retryFailed);
}

/**
 * What a layout's throughput is sampled from: one counter read per queue
 * (lib/shapes/throughput.ts: cumulative entries added and how many are
 * still in), the backlog beside it, and the figures the layout cannot give.
 * The sampler, its history keys and every page that shows throughput use
 * this alone.
 */
export interface ThroughputSource {
  /** what names the history keys under QueueLens's prefix: dashboards reading the same queues share one sampler and one history */
  readonly historyScope: string;
  /** the connection the samples are read over and the history is kept on */
  readonly connection: RedisConnection;
  /** the queues a sample covers, sorted */
  queueNames(): Promise<string[]>;
  /** of `names` (every queue the layout knows, as its counts list them), those a sample covers: the overview reads no history where none is written */
  coveredAmong(names: readonly string[]): Promise<readonly string[]>;
  /** one sample of every queue; given the previous one's moment, it also counts the failures since then */
  sample(previous?: Pick<ThroughputSample, 'at'>): Promise<ThroughputSample>;
  /** what `pushed` and `processed` count on this layout, in the words of /api/metrics' HELP lines; pushed absent where the layout records no pushes: its samples' pushed figures are left out, not shown */
  readonly meaning: { readonly pushed: string | Absent; readonly processed: string };
  /** the failed set, for /api/metrics' gauge; absent where the layout keeps no failed jobs: its samples count none, and no failed figure is shown */
  readonly failedJobs: Pick<FailedJobs, 'failedCount'> | Absent;
  /** why the oldest ready job's wait is not sampled (every sample says null); null where it is */
  readonly waitUnsampled: string | null;
}

/**
 * What a layout's forgets and removes kept, under QueueLens's own prefix
 * (lib/dashboard/keys.ts trashKeys), and putting it back. A layout with a
 * trash moves each job whole into it from the same script that takes it out
 * of the driver's keys (its forget and remove take a TrashWrite), and its
 * restore puts the job back exactly where its driver keeps such a job, or
 * refuses, per id, leaving the trash as it was.
 */
export interface TrashBin {
  /** newest first; `filter` narrows to a queue, a place and an operator (every row without one); a `limit` of 0 reads the counts alone */
  list(settings: TrashSettings, offset: number, limit: number, filter?: TrashFilter): Promise<TrashPage>;
  /** at most BATCH_SIZE ids, as listed; what became of each */
  restore(settings: TrashSettings, ids: readonly string[]): Promise<RestoredJob[]>;
  /** the id the trash lists, and restores, job `id` of `queue` under (its Undo's) */
  listedId(queue: string, id: string): string;
}

/** What Run a copy made: the new job's id, or why it made none, in the words a page shows. */
export type CopyOutcome = { copied: true; id: string } | { copied: false; refused: string };

/**
 * Run a copy of a job on a layout whose jobs QueueLens does not push itself
 * (no runner): one atomic script writes a new job with a new id from the
 * job's own bytes, on its queue, where the driver's push would put a new
 * one, optionally delayed and, where the layout's payload can be edited
 * safely, edited (what may be edited comes with the job's snapshot:
 * JobMessage.editable).
 */
export interface JobCopies {
  /** copies job `id` of `queue`, `delaySeconds` from now; `edited` replaces the part JobMessage.editable showed; `near`: where the page saw it (SeenJob.near) */
  copy(queue: string, id: string, options: { delaySeconds: number; edited?: string; near?: SeenPlace }): Promise<CopyOutcome>;
}

/**
 * One connection's queues as one layout lays them out: what it can tell and
 * what it can do. Callers ask it what it has; none asks which layout it is.
 */
export interface QueueLayout {
  readonly name: LayoutName;
  /** the driver and what of the database it covers, for a header or a log line */
  readonly description: string;
  /** the Redis connection the layout is read over; the server's facts (INFO) are every layout's */
  readonly connection: RedisConnection;
  /**
   * Every queue's figures: by default by the rule of the driver's own report
   * (StaticPHP's stats() leaves out a queue with no jobs); `everyQueue` keeps
   * every queue the layout knows, empty ones with zeros (the overview's rows
   * must not come and go); `only` reads just the named ones.
   */
  counts(options?: CountsOptions): Promise<LayoutCounts>;
  readonly attention: Attention | Absent;
  /** the sampled history of processed, pushed and failed jobs, kept under QueueLens's own prefix */
  readonly throughput: ThroughputSource | Absent;
  readonly failedJobs: FailedJobs | Absent;
  /** what forgets and removes kept, to list and restore */
  readonly trash: TrashBin | Absent;
  /** QueueLens's own driver and worker for this layout: pushing and running jobs */
  readonly runner: RedisQueue | Absent;
  /** Run a copy of a job where QueueLens has no runner for the layout: the copy its driver's push would make */
  readonly jobCopies: JobCopies | Absent;
  /** the layout's checks and repairs */
  readonly doctor: LayoutDoctor | Absent;
  /** releasing, failing or cleaning up a reservation whose holder the layout records, each re-checking what the operator saw */
  readonly claimRepairs: ClaimRepairs | Absent;
  /** jobs kept as hashes numbered by one counter across the connection (ids are whole numbers): a field's whole bytes, for download beside the job page's first 64 KiB */
  readonly jobHashFields: JobHashFields | Absent;
  /*
   * The same pages in shapes of lib/layouts/pages.ts that any layout can
   * fill; a page shows these when the StaticPHP-shaped member above is absent.
   */
  /** a queue's waiting jobs in the order they run, paged, and what joins the line next; its counts, levels and latest failures where the layout has them */
  readonly jobLine: JobLineReader | Absent;
  /** reservations with their expiry, and with their holder and claim where the layout records them */
  readonly expiringReservations: ExpiringReservationsReader | Absent;
  /** one queue's delayed jobs by when they come due; a parked job's holder where the layout records one */
  readonly dueTimeline: DueTimelineReader | Absent;
  /** one job by its id (decimal, or text such as marko’s UUIDs): where it is and its data decoded */
  readonly jobSnapshot: JobSnapshotReader | Absent;
  /** the repairs of those four pages: remove a job, release an expired reservation, run a delayed job now, move due jobs */
  readonly lineRepairs: LineRepairs | Absent;
  /** the failed jobs page's reads, for every layout that keeps failed jobs (failedJobs retries and forgets them) */
  readonly failedPages: FailedPagesReader | Absent;
  /** the keys page's table with rows any layout fills (types, sizes, memory, TTL, what each holds; a stream's consumer group where the layout reads with one) and its census */
  readonly keyTable: KeyTableReader | Absent;
  /** jobs by id, name, payload or error in every state, in bounded steps */
  readonly finder: JobFinder | Absent;
  close(): Promise<void>;
}

/** The members of a layout that it has or says why not: every one but those each layout has. */
export type CapabilityName = Exclude<keyof QueueLayout, 'name' | 'description' | 'connection' | 'counts' | 'close'>;
