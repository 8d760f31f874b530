/**
 * The Find benchmark's seeds (bench/find.ts): the same jobs in each layout,
 * from bench/seed-plan.ts (names, payloads with an order reference, delays),
 * written as each real driver writes them. StaticPHP goes through the
 * driver itself (bench/seed-queuelens.ts). yii2, marko and Laravel are
 * written with pipelined commands of the bytes their drivers write, rather
 * than a PHP process per job: yii2's messages in the shape its driver wrote
 * the fixtures (lib/layouts/yii2/test-messages.ts), marko's hashes and
 * signed payloads as lib/layouts/marko/test-worker.ts writes them, and
 * Laravel's payloads cut from ones the real RedisQueue wrote
 * (lib/layouts/laravel/php-harness.ts) with the class, ids and command's
 * string replaced.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ChainableCommander } from 'ioredis';
import type { QueueClient } from '../lib/redis/client';
import { execPipeline } from '../lib/redis/pipeline';
import { formatUtcSeconds } from '../lib/layouts/dates';
import { Yii2Keys } from '../lib/layouts/yii2/keys';
import { MarkoKeys } from '../lib/layouts/marko/keys';
import { serializeJob, signPayload } from '../lib/layouts/marko/test-worker';
import { LaravelKeys } from '../lib/layouts/laravel/keys';
import { LaravelHarness } from '../lib/layouts/laravel/php-harness';
import { inFlight } from '../lib/redis/in-flight';
import { failureText, heldCount, heldJob, seedPlan, waitingCount, waitingJob, type SeedJob, type SeedPlan } from './seed-plan';

/** The states a seeded job is left in. */
export type SeedState = 'ready' | 'delayed' | 'reserved' | 'failed';

/**
 * `total` jobs over `queueCount` queues, `failedShare` of them failed (0
 * where the layout keeps no failed jobs); of the others 10 % delayed and
 * 1 % reserved, as bench/seed-plan.ts has them.
 */
export function findSeedPlan(total: number, queueCount: number, failedShare: number): SeedPlan {
  const failed = Math.round(total * failedShare);
  const live = total - failed;
  return { ...seedPlan(live, queueCount), delayed: Math.round(live * 0.1), reserved: Math.round(live * 0.01), failed };
}

/** The plan's index-th job (held ones first, as StaticPHP's seeding pushes them) and the state it is left in. */
export function plannedJob(plan: SeedPlan, index: number): { job: SeedJob; state: SeedState } {
  if (index < heldCount(plan)) return { job: heldJob(plan, index), state: index < plan.failed ? 'failed' : 'reserved' };
  const job = waitingJob(plan, index - heldCount(plan));
  return { job, state: job.delaySeconds > 0 ? 'delayed' : 'ready' };
}

export const plannedTotal = (plan: SeedPlan): number => heldCount(plan) + waitingCount(plan);

/** Jobs per pipeline, and pipelines in flight. */
const JOBS_PER_PIPELINE = 1_000;
const PIPELINES_IN_FLIGHT = 4;
/** Reservations last long enough that nothing reclaims them while the benchmark runs. */
const HOLD_SECONDS = 3_600;

/** Writes every planned job with `write`, pipelined; `nowS` is the server's second. */
async function writePlanned(
  redis: QueueClient,
  plan: SeedPlan,
  write: (pipeline: ChainableCommander, index: number, job: SeedJob, state: SeedState, nowS: number) => void,
): Promise<void> {
  const nowS = Number((await redis.time())[0]);
  const total = plannedTotal(plan);
  await inFlight(Math.ceil(total / JOBS_PER_PIPELINE), PIPELINES_IN_FLIGHT, async (batch) => {
    const pipeline = redis.pipeline();
    for (let index = batch * JOBS_PER_PIPELINE; index < Math.min(total, (batch + 1) * JOBS_PER_PIPELINE); index++) {
      const { job, state } = plannedJob(plan, index);
      write(pipeline, index, job, state, nowS);
    }
    await execPipeline(pipeline);
  });
}

/** PHP serialize() of a string or an int. */
const phpValue = (value: string | number) => (typeof value === 'number' ? `i:${value};` : `s:${Buffer.byteLength(value)}:"${value}";`);

/** A yii2 message as the stock driver stores it (`<ttr>;<serialized job>`), shaped as the fixtures' jobs: a public name and a data array. */
export function yii2Message(id: number, job: SeedJob): string {
  const className = `app\\jobs\\${job.name}`;
  const data = `a:2:{${phpValue('account')}${phpValue(job.payload.account)}${phpValue('reference')}${phpValue(job.payload.reference)}}`;
  return `300;O:${className.length}:"${className}":2:{${phpValue('name')}${phpValue(`job-${id}`)}${phpValue('data')}${data}}`;
}

/**
 * yii2's stock driver, one channel per queue: every message in
 * `<ch>.messages` (id: the job's index + 1), waiting ids pushed on the
 * list's head, delayed ones scored by their due second, reserved ones by
 * their expiry with one attempt; message_id at the highest id.
 */
export async function seedYii2(redis: QueueClient, plan: SeedPlan): Promise<void> {
  if (plan.failed > 0) throw new Error('yii2 keeps no failed jobs: seed it with a failed share of 0');
  await writePlanned(redis, plan, (pipeline, index, job, state, nowS) => {
    const keys = new Yii2Keys(job.queue);
    const id = String(index + 1);
    pipeline.hset(keys.messages, id, yii2Message(index + 1, job));
    if (state === 'ready') pipeline.lpush(keys.waiting, id);
    if (state === 'delayed') pipeline.zadd(keys.delayed, nowS + job.delaySeconds, id);
    if (state === 'reserved') pipeline.zadd(keys.reserved, nowS + HOLD_SECONDS, id).hincrby(keys.attempts, id, 1);
  });
  const pipeline = redis.pipeline();
  for (const queue of plan.queues) pipeline.set(new Yii2Keys(queue).messageId, String(plannedTotal(plan)));
  await execPipeline(pipeline);
}

/**
 * marko/queue-redis under `prefix`: a hash per job (`queue`, signed
 * `payload`, `attempts`), its id on the ready list (and a notify token), in
 * the delayed set or in the reserved set (one attempt); a failed job's
 * record (the worker's storeFailedJob: id, queue, payload, exception,
 * failedAt) and its index entry, its hash gone.
 */
export async function seedMarko(redis: QueueClient, prefix: string, plan: SeedPlan): Promise<void> {
  const keys = new MarkoKeys(prefix);
  await writePlanned(redis, plan, (pipeline, index, job, state, nowS) => {
    const id = randomUUID();
    const payload = signPayload(serializeJob(`App\\Jobs\\${job.name}`, { id, attempts: 0, ...job.payload }));
    if (state === 'failed') {
      const record = JSON.stringify({ id, queue: job.queue, payload, exception: failureText(index), failedAt: formatUtcSeconds(nowS) });
      pipeline.hset(keys.failedJobs, id, record).zadd(keys.failedIndex, nowS, id);
      return;
    }
    pipeline.hset(keys.job(id), 'queue', job.queue, 'payload', payload, 'attempts', state === 'reserved' ? 1 : 0);
    if (state === 'ready') pipeline.rpush(keys.ready(job.queue), id).rpush(keys.notify(job.queue), '1');
    if (state === 'delayed') pipeline.zadd(keys.delayed(job.queue), nowS + job.delaySeconds, id);
    if (state === 'reserved') pipeline.zadd(keys.reserved(job.queue), nowS + HOLD_SECONDS, id);
  });
}

/** What the harness's command carries, cut out and replaced in each seeded payload: a fixed width, so that its serialized length is found as written. */
const TEMPLATE_TEXT = 'order-0000000000';
const TEMPLATE_CLASS = 'SendMail';

/** One payload as the real driver wrote it, pushed (ready, delayed) and as its pop re-encoded it (reserved). */
interface LaravelTemplates {
  pushed: string;
  reserved: string;
  uuid: string;
  id: string;
}

/**
 * Has the real Illuminate\Queue\RedisQueue push one job and pop it, on the
 * redis-server at `port` (database 0, a prefix of its own, deleted
 * afterwards): the pushed payload and the reserved copy its pop wrote.
 */
export async function laravelTemplates(redis: QueueClient, port: number): Promise<LaravelTemplates> {
  const prefix = `bench-find-template-${randomUUID()}:`;
  const keys = new LaravelKeys(prefix);
  const harness = new LaravelHarness(prefix, 'template', { port });
  try {
    await harness.push(TEMPLATE_TEXT, `App\\Jobs\\${TEMPLATE_CLASS}`);
    await harness.push(TEMPLATE_TEXT, `App\\Jobs\\${TEMPLATE_CLASS}`);
    const popped = await harness.pop(HOLD_SECONDS);
    if (popped === null) throw new Error('The Laravel harness popped nothing');
    const [pushed] = await redis.lrange(keys.ready('template'), 0, 0);
    const [reserved] = await redis.zrange(keys.reserved('template'), '0', '0');
    if (pushed === undefined || reserved === undefined) throw new Error('The Laravel harness left no payload to copy');
    // Both payloads of a template name the same job: the pushed one is the second push, so its ids are read from it.
    const { uuid, id } = JSON.parse(pushed) as { uuid: string; id: string };
    const reservedIds = JSON.parse(reserved) as { uuid: string; id: string };
    return { pushed, reserved: reserved.replaceAll(reservedIds.uuid, uuid).replaceAll(reservedIds.id, id), uuid, id };
  } finally {
    await redis.del(keys.ready('template'), keys.delayed('template'), keys.reserved('template'), keys.notify('template'));
  }
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Str::random(32): Laravel's job id. */
function laravelJobId(): string {
  return [...randomBytes(32)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('');
}

/** `template` for one job: its class (the class name's serialized length too), its ids, and its command's string with its serialized length. */
function laravelPayload(templates: LaravelTemplates, template: string, job: SeedJob): string {
  const className = `App\\\\Jobs\\\\${job.name}`;
  const text = job.payload.reference;
  return template
    .replaceAll(`"O:17:\\"App\\\\Jobs\\\\${TEMPLATE_CLASS}\\"`, `"O:${`App\\Jobs\\${job.name}`.length}:\\"${className}\\"`)
    .replaceAll(`App\\\\Jobs\\\\${TEMPLATE_CLASS}`, className)
    .replaceAll(`s:${TEMPLATE_TEXT.length}:\\"${TEMPLATE_TEXT}\\"`, `s:${text.length}:\\"${text}\\"`)
    .replaceAll(templates.uuid, randomUUID())
    .replaceAll(templates.id, laravelJobId());
}

/**
 * Laravel's RedisQueue under `prefix` (the connection's prefix), with no
 * failed jobs (it keeps none in Redis): ready payloads on `queues:{q}` with
 * a notify token each, delayed ones in `:delayed` by their due second,
 * reserved ones (their pop's copy) in `:reserved` by the expiry.
 */
export async function seedLaravel(redis: QueueClient, prefix: string, plan: SeedPlan, templates: LaravelTemplates): Promise<void> {
  if (plan.failed > 0) throw new Error('Laravel keeps no failed jobs in Redis: seed it with a failed share of 0');
  const keys = new LaravelKeys(prefix);
  await writePlanned(redis, plan, (pipeline, _index, job, state, nowS) => {
    const payload = laravelPayload(templates, state === 'reserved' ? templates.reserved : templates.pushed, job);
    if (state === 'ready') pipeline.rpush(keys.ready(job.queue), payload).rpush(keys.notify(job.queue), '1');
    if (state === 'delayed') pipeline.zadd(keys.delayed(job.queue), nowS + job.delaySeconds, payload);
    if (state === 'reserved') pipeline.zadd(keys.reserved(job.queue), nowS + HOLD_SECONDS, payload);
  });
}
