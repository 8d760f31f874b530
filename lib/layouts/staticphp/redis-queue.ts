import { RedisConnection, type ConnectOptions } from '../../redis/connection';
import { BATCH_SIZE, type ForgetOptions, type RequeueOutcome } from '../../shapes/failed-jobs';
import type { QueueClient } from '../../redis/client';
import { type RedisSettings } from '../../redis/config';
import { parseUtcDateToSeconds } from '../dates';
import { QueueError, refusedCommand } from '../../redis/errors';
import { isJson, toJobHash, toReservedJob, type JobRow, type ReservedJob } from './job';
import { jobIdAsRead } from '../../shapes/job-ids';
import { levelOf, QueueKeys } from './keys';
import { execPipeline } from '../../redis/pipeline';
import * as scripts from './scripts';
import type { QueueStats } from '../../shapes/queue-counts';
import type { Claim } from './scripts';
import type { TrashKeys } from '../../dashboard/keys';
import { layoutTrashKeys, trashArguments } from '../trash';
import type { TrashWrite } from '../../shapes/trash';
import { describeUnrunnablePayload } from '../../shapes/job-payload';

type PushCall = Parameters<typeof scripts.push.run>[1];

/** How many due delayed ids one reserve promotes (the spec's PROMOTE_LIMIT). */
export const PROMOTE_LIMIT = 50;
export const DEFAULT_MAX_ATTEMPTS = 3;
/** The message reserve() fails a job with when its payload does not decode. */
export const INVALID_PAYLOAD_ERROR = 'Payload is not valid JSON, so no handler could be given it.';

export interface PushOptions {
  /** seconds from now before the job may run; 0 makes it ready at once */
  delaySeconds?: number;
  /**
   * an integer; higher runs first, negative is allowed. Decimal text carries
   * any 64-bit integer exactly, as PHP writes them; a number must be safe.
   */
  priority?: number | string;
  /** while a job holds this key, pushing it again returns that job's id */
  uniqueKey?: string;
  maxAttempts?: number;
}

/** Queue names per SSCAN call: a few hundred short strings, well under a millisecond. */
const QUEUE_NAMES_STEP = 500;

/** Queues per call of the counting script: a few hundred commands inside Redis, well under a millisecond. */
const COUNTS_BATCH = 25;

/** How a worker settles the job it finished, for settleAndReserve(). */
export type Settlement =
  | { outcome: 'complete' }
  /** run again after `delaySeconds`, with `error` as last_error */
  | { outcome: 'release'; delaySeconds: number; error: string }
  /** for good, with `error` */
  | { outcome: 'fail'; error: string };

function assertNonEmptyText(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value === '') throw new QueueError(`${what} must be a non-empty string`);
}

function assertInteger(value: number, what: string, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) throw new QueueError(`${what} must be a whole number of at least ${min}, got ${value}`);
}

/**
 * A job id given as a JS number names j:{id} only while it is exact: past
 * 2^53 (a PHP id is 64-bit) it has been rounded to a neighbour's id on its
 * way here, so it is refused rather than acted on. Ids read from Redis travel
 * as their text instead (retryOldestFailed, forgetOldestFailed).
 */
function assertExactJobIds(ids: readonly number[]): void {
  for (const id of ids) {
    if (!Number.isSafeInteger(id) || id < 1) {
      throw new QueueError(`A job id must be a whole number from 1 to 2^53 - 1, got ${id}: past that a JS number has been rounded and would name another job`);
    }
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The level a push writes: the priority's decimal digits, a PHP integer (64-bit) at most. */
function priorityLevel(priority: number | string): string {
  if (typeof priority === 'number') {
    assertInteger(priority, 'The priority', Number.MIN_SAFE_INTEGER);
    return levelOf(String(priority));
  }
  if (!/^-?\d+$/.test(priority) || BigInt(priority) < INT64_MIN || BigInt(priority) > INT64_MAX) {
    throw new QueueError(`The priority must be a whole number from ${INT64_MIN} to ${INT64_MAX} (a PHP integer), got "${priority}"`);
  }
  return levelOf(priority);
}

function encodePayload(payload: unknown): string {
  const json = JSON.stringify(payload);
  if (json === undefined) throw new QueueError('The payload cannot be written as JSON');
  // JSON.stringify writes an object or an array starting with its bracket, and nothing else does.
  if (!json.startsWith('{') && !json.startsWith('[')) throw new QueueError(`The payload ${describeUnrunnablePayload(json)}`);
  return json;
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

/** One queue's stats() row from its counting script's reply: zeros and an `error` where its keys could not be read. */
export function queueStatsOf(queue: string, counts: scripts.QueueCountsReply): QueueStats {
  if ('error' in counts) return { queue, pending: 0, delayed: 0, reserved: 0, total: 0, error: refusedCommand(counts.error) };
  const { pending, delayed, reserved } = counts;
  return { queue, pending, delayed, reserved, total: pending + delayed + reserved };
}

/** Whether stats() lists a row: a queue that holds jobs, or whose keys could not be read (the row says why). */
export function isListedByStats(row: QueueStats): boolean {
  return row.total > 0 || row.error !== undefined;
}

/**
 * The StaticPHP QueueRedis driver in TypeScript: the same keys, fields,
 * scores and scripts' rules, so a queue written by either is run and
 * repaired by the other. Every mutation is one Lua script and one round trip;
 * time inside scripts is the Redis server's.
 */
export class RedisQueue extends RedisConnection {
  readonly keys: QueueKeys;

  private constructor(redis: QueueClient, settings: RedisSettings) {
    super(redis, settings);
    this.keys = new QueueKeys(settings.prefix);
  }

  /** Connects as RedisConnection.connect does, and puts StaticPHP's queue on the connection. */
  static override async connect(settings: RedisSettings, options: ConnectOptions = {}): Promise<RedisQueue> {
    return RedisQueue.over(await RedisConnection.connect(settings, options));
  }

  /** StaticPHP's queue over an open connection, sharing its client: closing either closes both. */
  static over(connection: RedisConnection): RedisQueue {
    return connection instanceof RedisQueue ? connection : new RedisQueue(connection.redis, connection.settings);
  }

  private pushCall(queue: string, name: string, json: string, options: PushOptions): PushCall {
    assertNonEmptyText(queue, 'The queue name');
    assertNonEmptyText(name, 'The job name');
    const { delaySeconds = 0, priority = 0, uniqueKey = '', maxAttempts = DEFAULT_MAX_ATTEMPTS } = options;
    const level = priorityLevel(priority);
    assertInteger(maxAttempts, 'max attempts', 1);
    if (!Number.isFinite(delaySeconds) || delaySeconds < 0) throw new QueueError(`The delay must be zero or more seconds, got ${delaySeconds}`);
    if (typeof uniqueKey !== 'string') throw new QueueError('The unique key must be a string');
    const k = this.keys;
    return {
      seq: k.seq,
      queues: k.queues,
      levels: k.levels(queue),
      delayed: k.delayed(queue),
      stream: k.stream(queue, level),
      prefix: k.prefix,
      queue,
      name,
      payload: json,
      maxAttempts,
      priority: level,
      uniqueKey,
      delaySeconds: Math.floor(delaySeconds),
    };
  }

  /**
   * Pushes a job and returns its id. With a unique key that a live job holds,
   * nothing is written and that job's id comes back. The payload must be an
   * object or an array (what a PHP worker can run); it is stored as
   * JSON.stringify writes it.
   */
  async push(queue: string, name: string, payload: unknown, options: PushOptions = {}): Promise<number> {
    return this.pushWith(this.pushCall(queue, name, encodePayload(payload), options));
  }

  /**
   * push() with a payload that is already JSON text, stored byte for byte:
   * never decoded and encoded again, which would turn 9007199254740993 into
   * 9007199254740992 and 1.0 into 1. Throws QueueError unless the text is a
   * JSON object or array.
   */
  async pushEncoded(queue: string, name: string, payloadJson: string, options: PushOptions = {}): Promise<number> {
    const unrunnable = describeUnrunnablePayload(payloadJson);
    if (unrunnable !== null) throw new QueueError(`The payload ${unrunnable}`);
    return this.pushWith(this.pushCall(queue, name, payloadJson, options));
  }

  private pushWith(call: PushCall): Promise<number> {
    return this.attempt(() => scripts.push.run(this.redis, call));
  }

  /** Pushes many jobs in one pipelined round trip; each is still its own PUSH script. */
  async pushMany(jobs: readonly { queue: string; name: string; payload: unknown; options?: PushOptions }[]): Promise<number[]> {
    const pipeline = this.redis.pipeline();
    for (const job of jobs) scripts.push.queue(pipeline, this.pushCall(job.queue, job.name, encodePayload(job.payload), job.options ?? {}));
    return this.attempt(async () => (await execPipeline(pipeline)).map(scripts.push.reply));
  }

  /**
   * Hands out the next job of the first queue in `queues` that has one, or
   * null. The claim lasts `timeoutSeconds`; an entry idle longer than that is
   * reclaimed first. A job whose payload is not JSON is failed on the spot and
   * reserve answers null, as an empty queue would.
   */
  async reserve(queues: readonly string[], workerId: string, timeoutSeconds: number): Promise<ReservedJob | null> {
    assertInteger(timeoutSeconds, 'The timeout', 1);
    for (const queue of queues) {
      assertNonEmptyText(queue, 'The queue name');
      const claim = await this.attempt(() =>
        scripts.reserve.run(this.redis, {
          delayed: this.keys.delayed(queue),
          levels: this.keys.levels(queue),
          prefix: this.keys.prefix,
          queue,
          group: this.settings.group,
          workerId,
          timeoutSeconds,
          promoteLimit: PROMOTE_LIMIT,
        }),
      );
      if (claim !== null) return this.claimedJob(claim);
    }
    return null;
  }

  /** A claim turned into the job it claimed; null, after failing it, when its payload is not JSON. */
  private async claimedJob({ id, entry, fields, reclaimed }: Claim): Promise<ReservedJob | null> {
    if (!Number.isSafeInteger(Number(id))) {
      // Settling it would name j:{id} rounded to another job's key. The
      // claim is left to run out; a PHP worker (64-bit ids) can take it then.
      throw new QueueError(
        `Job ${id} of queue ${fields.queue} has an id beyond 2^53, which QueueLens cannot carry exactly; it was not run and is left to its claim`,
      );
    }
    const job = toReservedJob(Number(id), entry, fields, reclaimed);
    if (!isJson(job.payload)) {
      await this.fail(job, INVALID_PAYLOAD_ERROR);
      return null;
    }
    return job;
  }

  /** The keys and arguments every settle of `job` names: its stream, its queue's delayed set, its hash and its claim as handed out. */
  private settleCall(job: ReservedJob) {
    return {
      stream: this.keys.stream(job.queue, job.priority),
      delayed: this.keys.delayed(job.queue),
      job: this.keys.job(job.id),
      prefix: this.keys.prefix,
      group: this.settings.group,
      id: job.id,
      entry: job.entry,
      reservedBy: job.fields.reserved_by,
      reservedUntil: job.fields.reserved_until,
    };
  }

  /**
   * The job is done: its hash and unique key are deleted. Returns false, and
   * changes nothing of the job, when the claim was lost meanwhile (reclaimed,
   * released, failed or requeued by someone else).
   */
  async complete(job: ReservedJob): Promise<boolean> {
    return this.attempt(() => scripts.complete.run(this.redis, this.settleCall(job)));
  }

  /**
   * Settles `job` as complete(), release() or fail() would, and hands out the
   * next job as reserve() would, in one script and one round trip
   * (lua/staticphp/settle-and-reserve-6.lua) for the first queue of `queues`; only when
   * that one has nothing are the others asked, in order, as reserve() asks
   * them. `settled` is false when the claim had been lost meanwhile; the next
   * job is reserved either way. A level's stream of the wrong type met while
   * reserving throws after the settle stood.
   */
  async settleAndReserve(
    job: ReservedJob,
    settlement: Settlement,
    queues: readonly string[],
    workerId: string,
    timeoutSeconds: number,
  ): Promise<{ settled: boolean; next: ReservedJob | null }> {
    assertInteger(timeoutSeconds, 'The timeout', 1);
    const [first, ...others] = queues;
    assertNonEmptyText(first, 'The queue name');
    const delaySeconds = settlement.outcome === 'release' ? settlement.delaySeconds : 0;
    if (!Number.isFinite(delaySeconds) || delaySeconds < 0) throw new QueueError(`The delay must be zero or more seconds, got ${delaySeconds}`);
    const { settled, next } = await this.attempt(() =>
      scripts.settleAndReserve.run(this.redis, {
        ...this.settleCall(job),
        failed: this.keys.failed,
        nextDelayed: this.keys.delayed(first),
        nextLevels: this.keys.levels(first),
        how: settlement.outcome,
        delaySeconds: Math.floor(delaySeconds),
        error: settlement.outcome === 'complete' ? '' : settlement.error,
        nextQueue: first,
        workerId,
        timeoutSeconds,
        promoteLimit: PROMOTE_LIMIT,
      }),
    );
    if (next !== null) return { settled, next: await this.claimedJob(next) };
    return { settled, next: others.length > 0 ? await this.reserve(others, workerId, timeoutSeconds) : null };
  }

  /** Gives the job back to run again after `delaySeconds`, with `error` as its last_error. */
  async release(job: ReservedJob, delaySeconds: number, error: string): Promise<boolean> {
    if (!Number.isFinite(delaySeconds) || delaySeconds < 0) throw new QueueError(`The delay must be zero or more seconds, got ${delaySeconds}`);
    return this.attempt(() => scripts.release.run(this.redis, { ...this.settleCall(job), delaySeconds: Math.floor(delaySeconds), error }));
  }

  /** Fails the job for good: it joins queue:failed with `error` (cut at 60000 bytes) and failed_at. */
  async fail(job: ReservedJob, error: string): Promise<boolean> {
    return this.attempt(() => scripts.fail.run(this.redis, { ...this.settleCall(job), failed: this.keys.failed, error }));
  }

  /**
   * Per queue, sorted by name: pending, delayed, reserved and total; queues
   * whose total is 0 are left out. reserved is the groups' pending lists, so
   * a claim that ran out still counts until somebody reclaims it.
   */
  async stats(): Promise<QueueStats[]> {
    return this.attempt(async () => (await this.countsOf(await this.queueNames())).filter(isListedByStats));
  }

  /** Every registered queue (queue:queues), sorted by name, empty ones included. */
  async queueNames(): Promise<string[]> {
    return (await this.registeredQueueNames(Infinity)).names;
  }

  /**
   * The registered queues' names, sorted, at most `maxQueues`: SSCAN,
   * QUEUE_NAMES_STEP a call, never one SMEMBERS, which blocks Redis for
   * milliseconds on a set of 10,000 names.
   */
  async registeredQueueNames(maxQueues: number): Promise<{ names: string[]; truncated: boolean }> {
    return this.attempt(async () => {
      const names = new Set<string>();
      let cursor = '0';
      do {
        const [next, batch] = await this.redis.sscan(this.keys.queues, cursor, 'COUNT', QUEUE_NAMES_STEP);
        for (const name of batch) names.add(name);
        cursor = next;
      } while (cursor !== '0' && names.size < maxQueues);
      const sorted = [...names].sort();
      return { names: sorted.slice(0, maxQueues), truncated: cursor !== '0' || sorted.length > maxQueues };
    });
  }

  /** The pending figure of one queue, or of all of them. */
  async pending(queue?: string): Promise<number> {
    return this.attempt(async () => {
      const names = queue === undefined ? await this.queueNames() : [queue];
      return (await this.countsOf(names)).reduce((sum, row) => sum + row.pending, 0);
    });
  }

  /**
   * stats() columns for the named queues, in the order given, zero totals
   * included: one round trip whatever the number of queues, a bounded
   * read-only script per COUNTS_BATCH queues (lua/staticphp/read-counts-1.lua). A
   * missing group is nobody holding anything; reporting never creates one. A
   * queue whose keys cannot be read (a key of the wrong type) gets zeros and
   * an `error`, and does not stop the others from being counted.
   */
  async countsOf(names: readonly string[]): Promise<QueueStats[]> {
    if (names.length === 0) return [];
    return this.attempt(async () => {
      const batches = this.redis.pipeline();
      for (let start = 0; start < names.length; start += COUNTS_BATCH) {
        scripts.readCounts.queue(batches, {
          queues: this.keys.queues,
          prefix: this.keys.prefix,
          group: this.settings.group,
          queueNames: names.slice(start, start + COUNTS_BATCH),
        });
      }
      const replies = (await execPipeline(batches)).flatMap(scripts.readCounts.reply);
      return names.map((queue, index) => queueStatsOf(queue, replies[index]!));
    });
  }

  async failedCount(): Promise<number> {
    return this.attempt(() => this.redis.zcard(this.keys.failed));
  }

  /**
   * Failed jobs, newest first: `limit` rows (at least 1) from `offset`. Ids
   * whose hash is gone are skipped.
   */
  async failedRows(limit: number, offset = 0): Promise<JobRow[]> {
    const count = Math.max(1, Math.floor(limit));
    const start = Math.max(0, Math.floor(offset));
    return this.attempt(async () => {
      const ids = await this.redis.zrevrange(this.keys.failed, start, start + count - 1);
      const reads = this.redis.pipeline();
      for (const id of ids) reads.hgetall(this.keys.job(id));
      // A j:{id} of another type is not a job; the doctor reports it.
      const hashes = await execPipeline(reads, (error) => error.message.startsWith('WRONGTYPE'));
      return ids.flatMap((id, index) => {
        const hash = hashes[index] as Record<string, string> | null;
        return hash && Object.keys(hash).length > 0 ? [{ ...toJobHash(hash), id: jobIdAsRead(id) }] : [];
      });
    });
  }

  /**
   * Requeues failed jobs on the REQUEUE terms: attempts 0, priority 0, no
   * unique key, their own queue and id. `ids` null means every failed job.
   * Unlike the PHP driver, an id not in queue:failed is skipped and reported,
   * never requeued. `maxAttempts` undefined keeps each job's own.
   */
  async retryFailed(ids: readonly number[] | null, maxAttempts?: number): Promise<RequeueOutcome> {
    if (maxAttempts !== undefined) assertInteger(maxAttempts, 'max attempts', 1);
    assertExactJobIds(ids ?? []);
    const outcome: RequeueOutcome = { requeued: [], notFailed: [], missing: [], queues: [] };
    const queues = new Set<string>();
    const add = (step: RequeueOutcome) => {
      outcome.requeued.push(...step.requeued);
      outcome.notFailed.push(...step.notFailed);
      outcome.missing.push(...step.missing);
      for (const queue of step.queues) queues.add(queue);
      return step.requeued.length + step.missing.length;
    };
    return this.attempt(async () => {
      if (ids !== null) {
        for (const batch of chunks(ids, BATCH_SIZE)) add(await this.requeue(batch, maxAttempts));
      } else {
        await this.inBoundedSteps(async () => add(await this.retryOldestFailed(maxAttempts)));
      }
      return { ...outcome, queues: [...queues] };
    });
  }

  /**
   * Replaces failed job `id`'s payload with `edited` (JSON text, stored byte
   * for byte) and retries it, in one script, only while it is still failed
   * with the payload `seen` (what the operator edited, byte for byte; null
   * where the caller read none, as the CLI's retry --payload). With
   * `trash` the job as it was is kept there first, to restore once the
   * retried job is gone. `queue` is the one a retried job went back to.
   * Throws QueueError when `edited` is no payload a PHP worker can run;
   * nothing is written then.
   */
  async editAndRetry(
    id: number,
    seen: string | null,
    edited: string,
    options: { maxAttempts?: number; trash?: TrashWrite } = {},
  ): Promise<{ outcome: scripts.EditRetryOutcome; kept: boolean; queue: string | null }> {
    assertExactJobIds([id]);
    if (options.maxAttempts !== undefined) assertInteger(options.maxAttempts, 'max attempts', 1);
    const unrunnable = describeUnrunnablePayload(edited);
    if (unrunnable !== null) throw new QueueError(`The payload ${unrunnable}`);
    return this.attempt(() =>
      scripts.editAndRetry.run(this.redis, {
        failed: this.keys.failed,
        queues: this.keys.queues,
        prefix: this.keys.prefix,
        ...trashArguments(this.keys.prefix, options.trash),
        id,
        seen: seen ?? '',
        edited,
        maxAttempts: options.maxAttempts ?? '',
      }),
    );
  }

  /**
   * One bounded step of retrying every failed job: requeues the oldest
   * BATCH_SIZE in one script call. `remaining` is the failed set's size after
   * it, for progress.
   */
  async retryOldestFailed(maxAttempts?: number): Promise<RequeueOutcome & { remaining: number }> {
    return this.attempt(async () => {
      const outcome = await this.requeue(await this.redis.zrange(this.keys.failed, 0, String(BATCH_SIZE - 1)), maxAttempts);
      return { ...outcome, remaining: await this.redis.zcard(this.keys.failed) };
    });
  }

  private async requeue(ids: readonly (number | string)[], maxAttempts: number | undefined): Promise<RequeueOutcome> {
    if (ids.length === 0) return { requeued: [], notFailed: [], missing: [], queues: [] };
    return scripts.requeue.run(this.redis, {
      failed: this.keys.failed,
      queues: this.keys.queues,
      prefix: this.keys.prefix,
      maxAttempts: maxAttempts ?? '',
      ids,
    });
  }

  /**
   * Forgets failed jobs: the one `id`, or those that failed before `before`
   * (`Y-m-d` or `Y-m-d H:i:s`, UTC). With neither, every failed job, but only
   * when `{ all: true }` asks for it. Returns how many were forgotten; an id
   * not in the failed set is left alone. With `trash` (and a keep time above
   * 0) each job is moved into QueueLens's trash instead of deleted.
   */
  async forgetFailed(id: number | null, before: string | null, options: ForgetOptions = {}, trash?: TrashWrite): Promise<number> {
    if (id !== null && before !== null) throw new QueueError('Forget either one id or the jobs failed before a date, not both');
    if (id === null && before === null && options.all !== true) {
      throw new QueueError('Forgetting every failed job must be asked for explicitly ({ all: true } or --all)');
    }
    if (id !== null) return this.forgetFailedIds([id], trash);
    return this.inBoundedSteps(async () => (await this.forgetOldestFailed(before, trash)).forgotten);
  }

  /** Forgets these ids, BATCH_SIZE per script call; ids not in the failed set are left alone. */
  async forgetFailedIds(ids: readonly number[], trash?: TrashWrite): Promise<number> {
    assertExactJobIds(ids);
    return this.attempt(async () => {
      let forgotten = 0;
      for (const batch of chunks(ids, BATCH_SIZE)) forgotten += await this.forget(batch, trash);
      return forgotten;
    });
  }

  /**
   * One bounded step of forgetting: the oldest BATCH_SIZE failed jobs (of
   * those failed before `before`, when given) in one script call. `remaining`
   * counts what is left to forget, for progress.
   */
  async forgetOldestFailed(before: string | null, trash?: TrashWrite): Promise<{ forgotten: number; remaining: number }> {
    const upTo = before === null ? '+inf' : `(${parseUtcDateToSeconds(before)}`;
    return this.attempt(async () => {
      const forgotten = await this.forget(await this.redis.zrangebyscore(this.keys.failed, '-inf', upTo, 'LIMIT', 0, BATCH_SIZE), trash);
      return { forgotten, remaining: await this.redis.zcount(this.keys.failed, '-inf', upTo) };
    });
  }

  /** How many failed jobs a forget would touch: all of them, or those failed before `before`. */
  async countFailedBefore(before: string | null): Promise<number> {
    const upTo = before === null ? '+inf' : `(${parseUtcDateToSeconds(before)}`;
    return this.attempt(() => this.redis.zcount(this.keys.failed, '-inf', upTo));
  }

  /** This queue's trash under QueueLens's prefix (lib/dashboard/keys.ts). */
  trashKeys(dashboardPrefix: string): TrashKeys {
    return layoutTrashKeys(this.keys.prefix, dashboardPrefix);
  }

  private async forget(ids: readonly (number | string)[], trash: TrashWrite | undefined): Promise<number> {
    if (ids.length === 0) return 0;
    const { forgotten } = await scripts.forget.run(this.redis, {
      failed: this.keys.failed,
      prefix: this.keys.prefix,
      ...trashArguments(this.keys.prefix, trash),
      ids,
    });
    return forgotten;
  }

  // Repeats a bounded step until it affects nothing. The number of steps is
  // capped by the failed set's size at the start, so jobs failing again while
  // this runs cannot keep it going for ever.
  private async inBoundedSteps(step: () => Promise<number>): Promise<number> {
    const maxSteps = Math.ceil((await this.failedCount()) / BATCH_SIZE) + 1;
    let affected = 0;
    for (let round = 0; round < maxSteps; round++) {
      const count = await step();
      if (count === 0) break;
      affected += count;
    }
    return affected;
  }
}
