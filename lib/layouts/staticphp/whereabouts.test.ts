import { describe, expect, it } from 'vitest';
import { promoteDueStep, runDelayedJobNow } from './delayed-repairs';
import type { ReservedJob } from './job';
import { levelOf } from './keys';
import type { RedisQueue, Settlement } from './redis-queue';
import { cleanTombstone, failReservation, releaseReservation } from './reservation-repairs';
import { sleep, testQueueFactory } from './test-redis';

/**
 * Issue 16, item 9: a job hash nothing would ever run again. Instead of
 * hoping a chaos run hits the bad moment, this walks seeded random sequences
 * of every operation that moves a job and checks after EVERY step where each
 * job is. A SIGKILL lands between two steps (each step is one script, or a
 * few raw commands that PHP runs as one script), so a state that holds after
 * every step is a state a kill cannot break.
 */
const openQueue = testQueueFactory();

const STEPS = 2_500;
const MAX_LIVE_JOBS = 40;
const QUEUES = ['mail', 'report'] as const;
const PRIORITIES = ['-3', '0', '2'] as const;
/** Timeouts of 1 s beside 3 s: a short-timeout worker reclaims a long one's entry while its claim is live, which parks the job. */
const WORKER_TIMEOUTS = [1, 1, 2, 3] as const;

/** mulberry32: small, seeded, and the same sequence on every machine. */
function randomFrom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Claim {
  job: ReservedJob;
  /** an operator released or failed the reservation: the holder may still settle, but the claim is no longer its alone (the page warns it may run twice) */
  revoked: boolean;
}

interface SimulatedWorker {
  id: string;
  timeout: number;
  generation: number;
  claims: Claim[];
}

interface Whereabouts {
  /** what is wrong; empty when every job is where the layout says it can be */
  problems: string[];
  tombstones: number;
  staleEntries: number;
  pendingEntries: number;
}

/**
 * Where every job of ids 1..maxId is. A job hash must be in exactly one of:
 * its own stream (its `entry` names an entry there that names it), its
 * queue's delayed set, the failed set. A hash that is gone must be in no
 * delayed or failed set. Two kinds of leftovers are allowed, because RESERVE
 * drops them when it meets them (docs/layouts.md differences 4 and the
 * spec's tombstones): a stream entry whose job is gone (a tombstone), and an
 * entry whose job's `entry` names another entry or whose stream is not the
 * job's own (stale).
 */
async function whereabouts(queue: RedisQueue, maxId: number): Promise<Whereabouts> {
  const { keys, redis } = queue;
  const reads = redis.pipeline();
  for (let id = 1; id <= maxId; id += 1) reads.hgetall(keys.job(id));
  for (const name of QUEUES) reads.zrange(keys.delayed(name), '0', '-1').zrange(keys.levels(name), '0', '-1');
  reads.zrange(keys.failed, '0', '-1');
  const replies = (await reads.exec())!.map(([error, value]) => {
    if (error) throw error;
    return value;
  });
  const hashes = replies.slice(0, maxId) as Record<string, string>[];
  const delayed = new Map<string, Set<string>>();
  const levels = new Map<string, string[]>();
  QUEUES.forEach((name, index) => {
    delayed.set(name, new Set(replies[maxId + 2 * index] as string[]));
    levels.set(name, replies[maxId + 2 * index + 1] as string[]);
  });
  const failed = new Set(replies[maxId + 2 * QUEUES.length] as string[]);

  const streams = QUEUES.flatMap((name) => levels.get(name)!.map((level) => keys.stream(name, level)));
  const streamReads = redis.pipeline();
  for (const stream of streams) streamReads.xrange(stream, '-', '+').xpending(stream, queue.settings.group);
  const streamReplies = (await streamReads.exec())!.map(([error, value]) => {
    if (error && !error.message.includes('NOGROUP')) throw error;
    return error ? null : value;
  });
  /** stream key → entry id → job id */
  const entries = new Map<string, Map<string, string>>();
  let pendingEntries = 0;
  streams.forEach((stream, index) => {
    const range = streamReplies[2 * index] as [string, string[]][];
    entries.set(stream, new Map(range.map(([entry, fields]) => [entry, fields[fields.indexOf('job') + 1] ?? ''])));
    const summary = streamReplies[2 * index + 1] as [number] | null;
    pendingEntries += summary ? Number(summary[0]) : 0;
  });

  const problems: string[] = [];
  const exists = (id: string) => Number(id) >= 1 && Number(id) <= maxId && Object.keys(hashes[Number(id) - 1]!).length > 0;
  for (let id = 1; id <= maxId; id += 1) {
    const hash = hashes[id - 1]!;
    const name = String(id);
    const inDelayed = QUEUES.filter((queueName) => delayed.get(queueName)!.has(name));
    if (Object.keys(hash).length === 0) {
      if (inDelayed.length > 0) problems.push(`job ${id} is gone but the delayed set of ${inDelayed.join(', ')} names it`);
      if (failed.has(name)) problems.push(`job ${id} is gone but the failed set names it`);
      continue;
    }
    const own = keys.stream(hash.queue ?? '', levelOf(hash.priority ?? ''));
    const places: string[] = [];
    if (hash.entry) {
      if (entries.get(own)?.get(hash.entry) === name) places.push(`its stream (${hash.entry})`);
      else problems.push(`job ${id}'s entry ${hash.entry} is no entry of ${own} naming it`);
    }
    for (const queueName of inDelayed) {
      if (queueName === hash.queue) places.push('its delayed set');
      else problems.push(`job ${id} of ${hash.queue} is in the delayed set of ${queueName}`);
    }
    if (failed.has(name)) places.push('the failed set');
    if (places.length !== 1) problems.push(`job ${id} (${JSON.stringify(hash)}) is in ${places.length === 0 ? 'nothing: orphaned' : places.join(' and ')}`);
  }

  let tombstones = 0;
  let staleEntries = 0;
  for (const [stream, byEntry] of entries) {
    for (const [entry, id] of byEntry) {
      if (!exists(id)) tombstones += 1;
      else {
        const hash = hashes[Number(id) - 1]!;
        if (hash.entry !== entry || keys.stream(hash.queue ?? '', levelOf(hash.priority ?? '')) !== stream) staleEntries += 1;
      }
    }
  }
  return { problems, tombstones, staleEntries, pendingEntries };
}

/**
 * Jobs that two simulated workers run at once: each still holds a claim it
 * was handed, and each claim's deadline is ahead by the server's clock. A
 * holder keeps running until its own deadline whatever the hash says since,
 * so a second claim before that deadline runs the job twice. Claims an
 * operator ended by hand are left out: the page warns that the job may run
 * twice.
 */
async function heldTwice(queue: RedisQueue, workers: readonly SimulatedWorker[]): Promise<string[]> {
  const [seconds] = await queue.redis.time();
  const now = Number(seconds);
  const holders = new Map<number, string[]>();
  for (const worker of workers) {
    for (const { job, revoked } of worker.claims) {
      if (revoked || Number(job.fields.reserved_until) <= now) continue;
      holders.set(job.id, [...(holders.get(job.id) ?? []), `${worker.id} (entry ${job.entry}, until ${job.fields.reserved_until})`]);
    }
  }
  return [...holders].filter(([, by]) => by.length > 1).map(([id, by]) => `job ${id} is held by ${by.join(' and ')}`);
}

/** A job as PHP's PUSH writes it, ready or delayed (the fixtures' shape: entry '' while delayed). */
async function pushAsPhp(queue: RedisQueue, name: string, priority: string, delaySeconds: number): Promise<number> {
  const { keys, redis } = queue;
  const id = await redis.incr(keys.seq);
  const [seconds] = await redis.time();
  const availableAt = Number(seconds) + delaySeconds;
  const entry = delaySeconds > 0 ? '' : (await redis.xadd(keys.stream(name, priority), '*', 'job', String(id)))!;
  const write = redis.multi().hset(keys.job(id), {
    queue: name,
    name: 'App\\Jobs\\Php',
    payload: '{"php":true}',
    attempts: '0',
    max_attempts: '2',
    priority,
    unique_key: '',
    available_at: String(availableAt),
    reserved_until: '0',
    reserved_by: '',
    last_error: '',
    created_at: '2026-12-01 00:00:00',
    entry,
  });
  if (delaySeconds > 0) write.zadd(keys.delayed(name), availableAt, String(id));
  else write.zadd(keys.levels(name), priority, priority);
  await write.sadd(keys.queues, name).exec();
  return id;
}

type Step = (random: () => number) => Promise<string>;

async function walk(seed: number): Promise<{ log: string[]; counts: Record<string, number>; tombstones: number; staleEntries: number }> {
  const queue = await openQueue();
  const random = randomFrom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const workers: SimulatedWorker[] = WORKER_TIMEOUTS.map((timeout, index) => ({ id: `w${index}.0`, timeout, generation: 0, claims: [] }));
  const log: string[] = [];
  const counts: Record<string, number> = {};
  let maxId = 0;
  let tombstones = 0;
  let staleEntries = 0;

  const jobCount = async () => {
    const reads = queue.redis.pipeline();
    for (let id = 1; id <= maxId; id += 1) reads.exists(queue.keys.job(id));
    return (await reads.exec())!.reduce((sum, [, value]) => sum + Number(value), 0);
  };
  const takeClaim = (worker: SimulatedWorker, job: ReservedJob | null) => {
    if (job) worker.claims.push({ job, revoked: false });
    return job ? `claimed ${job.id} (${job.reclaimed ? 'reclaimed' : 'fresh'}, attempt ${job.attempts})` : 'nothing';
  };
  const randomSettlement = (): Settlement => {
    const roll = random();
    if (roll < 0.5) return { outcome: 'complete' };
    if (roll < 0.8) return { outcome: 'release', delaySeconds: pick([0, 0, 1]), error: 'again' };
    return { outcome: 'fail', error: 'for good' };
  };
  const takeOwnClaim = (worker: SimulatedWorker): Claim | undefined => {
    if (worker.claims.length === 0) return undefined;
    return worker.claims.splice(Math.floor(random() * worker.claims.length), 1)[0];
  };
  const idsOf = async (key: string) => (await queue.redis.zrange(key, '0', '-1')).map(Number);
  /** A pending entry, as the reservations page shows it to an operator: the claim it names, or a tombstone. */
  const seenPending = async () => {
    const name = pick(QUEUES);
    const level = pick(await queue.redis.zrange(queue.keys.levels(name), '0', '-1').then((found) => (found.length > 0 ? found : ['0'])));
    const stream = queue.keys.stream(name, level);
    const pending = (await queue.redis.xpending(stream, queue.settings.group, '-', '+', 50).catch(() => [])) as [string][];
    if (pending.length === 0) return null;
    const entry = pick(pending)[0];
    const [found] = await queue.redis.xrange(stream, entry, entry);
    const jobId = found ? Number(found[1][found[1].indexOf('job') + 1]) : null;
    const hash = jobId === null ? {} : await queue.redis.hgetall(queue.keys.job(jobId));
    return { name, level, entry, jobId, hash };
  };
  const revokeClaimsOn = (jobId: number) => {
    for (const worker of workers) for (const claim of worker.claims) if (claim.job.id === jobId) claim.revoked = true;
  };

  const steps: [weight: number, name: string, step: Step][] = [
    [
      10,
      'push',
      async () => {
        if ((await jobCount()) >= MAX_LIVE_JOBS) return 'full';
        const id = await queue.push(
          pick(QUEUES),
          'demo',
          { n: maxId },
          {
            priority: Number(pick(PRIORITIES)),
            delaySeconds: pick([0, 0, 0, 1, 2]),
            maxAttempts: pick([1, 2, 3]),
          },
        );
        maxId = Math.max(maxId, id);
        return `pushed ${id}`;
      },
    ],
    [
      4,
      'push as PHP',
      async () => {
        if ((await jobCount()) >= MAX_LIVE_JOBS) return 'full';
        const id = await pushAsPhp(queue, pick(QUEUES), pick(PRIORITIES), pick([0, 0, 1]));
        maxId = Math.max(maxId, id);
        return `pushed ${id} as PHP`;
      },
    ],
    [
      14,
      'reserve',
      async () => {
        const worker = pick(workers);
        return `${worker.id} ${takeClaim(worker, await queue.reserve(random() < 0.5 ? [...QUEUES] : [...QUEUES].reverse(), worker.id, worker.timeout))}`;
      },
    ],
    [
      10,
      'settle and reserve',
      async () => {
        const worker = pick(workers);
        const claim = takeOwnClaim(worker);
        if (!claim) return 'no claim';
        const settlement = randomSettlement();
        const { settled, next } = await queue.settleAndReserve(claim.job, settlement, [...QUEUES], worker.id, worker.timeout);
        return `${worker.id} ${settlement.outcome} ${claim.job.id}: ${settled}, ${takeClaim(worker, next)}`;
      },
    ],
    [
      10,
      'settle',
      async () => {
        const worker = pick(workers);
        const claim = takeOwnClaim(worker);
        if (!claim) return 'no claim';
        const settlement = randomSettlement();
        const settled =
          settlement.outcome === 'complete'
            ? await queue.complete(claim.job)
            : settlement.outcome === 'release'
              ? await queue.release(claim.job, settlement.delaySeconds, settlement.error)
              : await queue.fail(claim.job, settlement.error);
        return `${worker.id} ${settlement.outcome} ${claim.job.id}: ${settled}`;
      },
    ],
    // A command timeout on the client while Redis still runs the script: the
    // claim it made (or the next job settleAndReserve handed out) is one no
    // worker knows about.
    [
      3,
      'reserve, reply lost',
      async () => {
        const worker = pick(workers);
        const job = await queue.reserve([...QUEUES], worker.id, worker.timeout);
        return `${worker.id} lost the reply: ${job ? job.id : 'nothing'}`;
      },
    ],
    [
      3,
      'settle and reserve, reply lost',
      async () => {
        const worker = pick(workers);
        const claim = takeOwnClaim(worker);
        if (!claim) return 'no claim';
        const { next } = await queue.settleAndReserve(claim.job, randomSettlement(), [...QUEUES], worker.id, worker.timeout);
        return `${worker.id} settled ${claim.job.id} and lost the reply: ${next ? next.id : 'nothing'}`;
      },
    ],
    // SIGKILL: the worker's claims are abandoned mid-job; it comes back under a new id.
    [
      3,
      'worker dies',
      async () => {
        const worker = pick(workers);
        const abandoned = worker.claims.splice(0).map((claim) => claim.job.id);
        worker.generation += 1;
        worker.id = `${worker.id.split('.')[0]}.${worker.generation}`;
        return `${worker.id} restarted, abandoning ${abandoned.join(', ') || 'nothing'}`;
      },
    ],
    [
      3,
      'retry failed',
      async () => {
        const ids = (await idsOf(queue.keys.failed)).filter(() => random() < 0.5);
        const outcome = await queue.retryFailed(ids.length > 0 ? ids : null, random() < 0.5 ? undefined : 2);
        return `retried ${JSON.stringify(outcome)}`;
      },
    ],
    [
      2,
      'forget failed',
      async () => {
        const ids = (await idsOf(queue.keys.failed)).filter(() => random() < 0.3);
        return ids.length > 0 ? `forgot ${await queue.forgetFailedIds(ids)} of ${ids.join(', ')}` : 'nothing failed';
      },
    ],
    [
      3,
      'run now',
      async () => {
        const name = pick(QUEUES);
        const ids = await idsOf(queue.keys.delayed(name));
        if (ids.length === 0) return 'nothing delayed';
        const id = pick(ids);
        return `run ${id} now: ${JSON.stringify(await runDelayedJobNow(queue, name, id))}`;
      },
    ],
    [2, 'promote due', async () => `promoted ${JSON.stringify(await promoteDueStep(queue, pick(QUEUES), pick([1, 50])))}`],
    // The reservation repairs act on what the operator saw; half the time a worker moves first.
    [
      4,
      'reservation repair',
      async () => {
        const seen = await seenPending();
        if (!seen) return 'nothing pending';
        if (random() < 0.5) await steps[2]![2](random);
        const { name, level, entry, jobId, hash } = seen;
        if (jobId === null || Object.keys(hash).length === 0) {
          return `clean tombstone ${entry}: ${JSON.stringify(await cleanTombstone(queue, { queue: name, level, entry, jobId }))}`;
        }
        const reservation = {
          queue: name,
          level,
          entry,
          jobId,
          reservedBy: hash.reserved_by ?? '',
          reservedUntil: hash.reserved_until ?? '',
          attempts: hash.attempts ?? '',
        };
        const outcome = random() < 0.5 ? await releaseReservation(queue, reservation) : await failReservation(queue, reservation, 'by hand');
        if (outcome.done) revokeClaimsOn(jobId);
        return `repair ${jobId} at ${entry}: ${JSON.stringify(outcome)}`;
      },
    ],
    // Time passes for every claim at once: deadlines run out, entries go idle past a timeout.
    [
      1,
      'wait',
      async () => {
        const ms = pick([300, 700, 1100]);
        await sleep(ms);
        return `waited ${ms} ms`;
      },
    ],
  ];
  const totalWeight = steps.reduce((sum, [weight]) => sum + weight, 0);

  for (let index = 0; index < STEPS; index += 1) {
    let roll = random() * totalWeight;
    const [, name, step] = steps.find(([weight]) => (roll -= weight) < 0) ?? steps[0]!;
    const said = await step(random);
    counts[name] = (counts[name] ?? 0) + 1;
    log.push(`${index} ${name}: ${said}`);
    const found = await whereabouts(queue, maxId);
    const twice = await heldTwice(queue, workers);
    tombstones = Math.max(tombstones, found.tombstones);
    staleEntries = Math.max(staleEntries, found.staleEntries);
    if (found.problems.length > 0 || twice.length > 0) {
      throw new Error(
        `seed ${seed}, step ${index} (${name}) broke the invariant:\n  ${[...found.problems, ...twice].join('\n  ')}\n` +
          `last steps:\n  ${log.slice(-40).join('\n  ')}\n(rerun with WHEREABOUTS_SEED=${seed})`,
      );
    }
  }
  return { log, counts, tombstones, staleEntries };
}

describe('every job is in exactly one place after every step', () => {
  const given = process.env.WHEREABOUTS_SEED;
  const seeds = given ? [Number(given)] : [Math.floor(Math.random() * 2 ** 31), Math.floor(Math.random() * 2 ** 31)];

  it.each(seeds)(
    'seed %i: random pushes, claims, settles, deaths, lost replies, retries, forgets, run-now, promotions and repairs leave no hash in no place, and no job on two live claims',
    async (seed) => {
      const { counts, tombstones, staleEntries, log } = await walk(seed);
      console.log(
        `whereabouts seed ${seed}: ${STEPS} steps ${JSON.stringify(counts)}; at most ${tombstones} tombstones and ${staleEntries} stale entries at once`,
      );
      // The walk reached the states worth checking: claims were made, settled, lost and reclaimed.
      expect(log.some((line) => line.includes('reclaimed'))).toBe(true);
      expect(log.some((line) => line.includes(': false'))).toBe(true);
      expect(log.some((line) => /repair \d+ at [^:]+: \{"done":true/.test(line))).toBe(true);
    },
    240_000,
  );
});
