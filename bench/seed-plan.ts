/**
 * What the dashboard benchmark seeds, identically for QueueLens and for
 * BullMQ: `jobs` live jobs over `queues` queues, 10 % of them delayed and
 * 1 % reserved by a worker that never finishes them, plus `failed` failed
 * jobs (issue 7: 1,000,000 jobs over 50 queues and 100,000 failed).
 */
export interface SeedPlan {
  /** live jobs: ready, delayed and reserved */
  jobs: number;
  queues: string[];
  delayed: number;
  reserved: number;
  failed: number;
}

/** Runs one stretch of seeding (`count` jobs) and reports on it; the caller decides how. */
export type SeedStep = (label: string, count: number, body: () => Promise<unknown>) => Promise<void>;

/** One job as both layouts write it. */
export interface SeedJob {
  queue: string;
  name: string;
  payload: { account: number; reference: string };
  /** QueueLens' priority: higher runs first */
  priority: number;
  /** 0: ready at once */
  delaySeconds: number;
}

const JOB_NAMES = ['SendWelcomeEmail', 'ChargeInvoice', 'ResizeImage', 'SyncInventory', 'GenerateReport'];
/** 20 slots: 70 % at 0, 15 % at 5, 10 % at 10, 5 % at -5, so each queue has four level streams. */
const PRIORITY_MIX = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 10, 10, -5];
/** Delays run from a minute to eight days, so every bucket of the delayed timeline (and "later") has jobs. */
const DELAY_SPAN_SECONDS = 8 * 86_400;
/** How many workers hold the reserved jobs, so that the reservations page has holders to group by. */
export const HOLDERS = 20;

export function seedPlan(jobs: number, queueCount = 50): SeedPlan {
  return {
    jobs,
    queues: Array.from({ length: queueCount }, (_, n) => `bench-${String(n).padStart(2, '0')}`),
    delayed: Math.round(jobs * 0.1),
    reserved: Math.round(jobs * 0.01),
    failed: Math.round(jobs * 0.1),
  };
}

/** Whether the n-th of `total` items is one of the `count` picked: exactly `count`, spread evenly. */
function isPicked(n: number, count: number, total: number): boolean {
  return Math.floor(((n + 1) * count) / total) > Math.floor((n * count) / total);
}

/**
 * The n-th job of the plan's first wave: the jobs a worker then reserves,
 * failing the first `failed` and holding the rest. They are pushed (and
 * reserved) before anything else so that a reserve can only hand out these.
 * Their queue is `queues[n % queues.length]`, as reserving goes.
 */
export function heldJob(plan: SeedPlan, n: number): SeedJob {
  return shape(plan, n, 0);
}

export const heldCount = (plan: SeedPlan): number => plan.failed + plan.reserved;

/** The n-th job of the second wave: the ones that wait, `delayed` of them delayed, spread evenly. */
export function waitingJob(plan: SeedPlan, n: number): SeedJob {
  const delayed = isPicked(n, plan.delayed, waitingCount(plan));
  return shape(plan, n, delayed ? 60 + ((n * 7919) % DELAY_SPAN_SECONDS) : 0);
}

export const waitingCount = (plan: SeedPlan): number => plan.jobs - plan.reserved;

function shape(plan: SeedPlan, n: number, delaySeconds: number): SeedJob {
  // Jobs go round the queues; names and priorities cycle per queue, so that
  // every queue gets the whole mix (cycling both by n would give each queue
  // only the priorities its position shares a divisor with).
  const inQueue = Math.floor(n / plan.queues.length);
  return {
    queue: plan.queues[n % plan.queues.length]!,
    name: JOB_NAMES[inQueue % JOB_NAMES.length]!,
    payload: { account: n, reference: `order-${(n * 2_654_435_761) % 1_000_000_007}` },
    priority: PRIORITY_MIX[inQueue % PRIORITY_MIX.length]!,
    delaySeconds,
  };
}

/** A failure as a PHP worker records one: a message and a stack trace, a few hundred bytes. */
export function failureText(n: number): string {
  return [
    `RuntimeException: upstream answered 503 for request ${n}`,
    '#0 /srv/app/src/Http/Client.php(118): App\\Http\\Client->send()',
    '#1 /srv/app/src/Jobs/ChargeInvoice.php(42): App\\Http\\Client->post()',
    '#2 /srv/app/vendor/staticphp/queue/src/Worker.php(87): App\\Jobs\\ChargeInvoice->handle()',
    '#3 /srv/app/vendor/staticphp/queue/src/Worker.php(51): StaticPHP\\Queue\\Worker->process()',
    '#4 {main}',
  ].join('\n');
}

/** The worker id holding the n-th reserved job, in the driver's host:pid form. */
export function holderOf(n: number): string {
  return `bench-worker-${n % HOLDERS}:${4000 + (n % HOLDERS)}`;
}
