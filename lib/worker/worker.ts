import { hostname } from 'node:os';
import type { ReservedJob } from '../layouts/staticphp/job';
import type { RedisQueue, Settlement } from '../layouts/staticphp/redis-queue';

export interface JobContext {
  job: ReservedJob;
  /** aborted when the job runs past the timeout; a handler should stop then */
  signal: AbortSignal;
}

export type JobHandler = (payload: unknown, context: JobContext) => unknown;

export type WorkerEvent =
  | { type: 'completed'; job: ReservedJob; ms: number }
  | { type: 'released'; job: ReservedJob; error: string; delaySeconds: number }
  | { type: 'failed'; job: ReservedJob; error: string }
  | { type: 'claim-lost'; job: ReservedJob }
  | { type: 'queue-unreachable'; error: string; retryInMs: number }
  | { type: 'settle-error'; job: ReservedJob; error: string };

export interface WorkerOptions {
  queues: readonly string[];
  handlers: Readonly<Record<string, JobHandler>>;
  /** the claim's length, and how long a handler may run; seconds */
  timeoutSeconds?: number;
  /** jobs run at once by this process */
  concurrency?: number;
  /** written to reserved_by; host:pid like the PHP worker */
  workerId?: string;
  /** wait after finding every queue empty */
  idleMs?: number;
  /** seconds before a failed attempt runs again */
  retryDelaySeconds?: (attempts: number) => number;
  onEvent?: (event: WorkerEvent) => void;
}

/** 2, 4, 8… seconds, at most five minutes. */
export function exponentialRetryDelay(attempts: number): number {
  return Math.min(300, 2 ** Math.max(1, attempts));
}

/** The first wait after Redis could not be reached, doubled after each failure up to the maximum. */
export const UNREACHABLE_FIRST_WAIT_MS = 250;
export const UNREACHABLE_MAX_WAIT_MS = 10_000;

function describeError(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}

/**
 * Reserves from its queues in order and runs the handler registered for each
 * job's name: complete on success, release with backoff and last_error while
 * attempts remain, then fail. A busy slot settles each job and reserves the
 * next in one round trip (settleAndReserve). A throw from reserve (Redis
 * unreachable) backs off instead of crashing; stop() lets running jobs finish.
 */
export class Worker {
  private stopping = false;
  private readonly wakeUps = new Set<() => void>();
  private readonly options: Required<Omit<WorkerOptions, 'onEvent'>> & Pick<WorkerOptions, 'onEvent'>;

  constructor(
    private readonly queue: RedisQueue,
    options: WorkerOptions,
  ) {
    this.options = {
      timeoutSeconds: 60,
      concurrency: 1,
      workerId: `${hostname()}:${process.pid}`,
      idleMs: 1000,
      retryDelaySeconds: exponentialRetryDelay,
      ...options,
    };
  }

  /** Runs until stop(); resolves once every slot has finished its current job. */
  async run(): Promise<void> {
    const slots = Array.from({ length: Math.max(1, this.options.concurrency) }, () => this.runSlot());
    await Promise.all(slots);
  }

  /** Asks every slot to stop after its current job; run() resolves when they have. */
  stop(): void {
    this.stopping = true;
    for (const wake of this.wakeUps) wake();
  }

  private async runSlot(): Promise<void> {
    let unreachableWaitMs = UNREACHABLE_FIRST_WAIT_MS;
    // A job handed out with the previous one's settle is run even when a stop
    // came meanwhile: nobody else would run it before its claim ran out.
    let next: ReservedJob | null = null;
    while (next !== null || !this.stopping) {
      let job = next;
      next = null;
      if (job === null) {
        try {
          job = await this.queue.reserve(this.options.queues, this.options.workerId, this.options.timeoutSeconds);
          unreachableWaitMs = UNREACHABLE_FIRST_WAIT_MS;
        } catch (error) {
          this.emit({ type: 'queue-unreachable', error: error instanceof Error ? error.message : String(error), retryInMs: unreachableWaitMs });
          await this.sleep(unreachableWaitMs);
          unreachableWaitMs = Math.min(unreachableWaitMs * 2, UNREACHABLE_MAX_WAIT_MS);
          continue;
        }
        if (job === null) {
          await this.sleep(this.options.idleMs);
          continue;
        }
      }
      next = await this.process(job);
    }
  }

  /** Runs the job and settles it; unless stopping, the same call reserves the next job, which is returned. */
  private async process(job: ReservedJob): Promise<ReservedJob | null> {
    const startedAt = Date.now();
    let failure: string | undefined;
    if (job.reclaimed && job.attempts > job.maxAttempts) {
      // Only a holder that died mid-job leaves a reclaimed entry past the
      // maximum: the reclaim counted one more, and running it again would
      // exceed the cap. A job read fresh from its stream with its attempts
      // used released itself on its last attempt (PHP's $job->release()), and
      // PHP runs it: so does this worker.
      failure = `Job ${job.id} was reserved ${job.attempts} times, more than its max_attempts of ${job.maxAttempts}; the workers holding it stopped before finishing`;
    } else {
      failure = await this.runHandler(job);
    }
    const settlement: Settlement =
      failure === undefined
        ? { outcome: 'complete' }
        : job.attempts >= job.maxAttempts
          ? { outcome: 'fail', error: failure }
          : { outcome: 'release', delaySeconds: this.options.retryDelaySeconds(job.attempts), error: failure };
    try {
      let settled: boolean;
      let next: ReservedJob | null = null;
      if (this.stopping) settled = await this.settle(job, settlement);
      else ({ settled, next } = await this.queue.settleAndReserve(job, settlement, this.options.queues, this.options.workerId, this.options.timeoutSeconds));
      this.emitSettled(job, settlement, settled, Date.now() - startedAt);
      return next;
    } catch (error) {
      // The claim runs out and another reserve reclaims the job.
      this.emit({ type: 'settle-error', job, error: error instanceof Error ? error.message : String(error) });
      return null;
    }
  }

  private settle(job: ReservedJob, settlement: Settlement): Promise<boolean> {
    switch (settlement.outcome) {
      case 'complete':
        return this.queue.complete(job);
      case 'release':
        return this.queue.release(job, settlement.delaySeconds, settlement.error);
      case 'fail':
        return this.queue.fail(job, settlement.error);
    }
  }

  private emitSettled(job: ReservedJob, settlement: Settlement, settled: boolean, ms: number): void {
    if (!settled) return this.emit({ type: 'claim-lost', job });
    switch (settlement.outcome) {
      case 'complete':
        return this.emit({ type: 'completed', job, ms });
      case 'release':
        return this.emit({ type: 'released', job, error: settlement.error, delaySeconds: settlement.delaySeconds });
      case 'fail':
        return this.emit({ type: 'failed', job, error: settlement.error });
    }
  }

  /** Returns undefined on success, or the failure to record. */
  private async runHandler(job: ReservedJob): Promise<string | undefined> {
    const handler = this.options.handlers[job.name];
    if (!handler) return `No handler is registered for job name "${job.name}" in this worker`;
    const controller = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        controller.abort();
        reject(new Error(`Job ${job.id} ran longer than the ${this.options.timeoutSeconds}s timeout`));
      }, this.options.timeoutSeconds * 1000);
    });
    try {
      await Promise.race([Promise.resolve().then(() => handler(JSON.parse(job.payload), { job, signal: controller.signal })), timeout]);
      return undefined;
    } catch (error) {
      return describeError(error);
    } finally {
      clearTimeout(timer);
    }
  }

  private sleep(ms: number): Promise<void> {
    if (this.stopping) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        this.wakeUps.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      this.wakeUps.add(wake);
    });
  }

  private emit(event: WorkerEvent): void {
    this.options.onEvent?.(event);
  }
}
