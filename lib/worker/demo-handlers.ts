import type { RedisQueue } from '../layouts/staticphp/redis-queue';
import type { JobHandler } from './worker';

function numberField(payload: unknown, field: string, fallback: number): number {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function sleepUnlessAborted(ms: number, signal: AbortSignal, name: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error(`${name} was cut short by the timeout`));
    });
  });
}

function textField(payload: unknown, field: string): string | undefined {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Handlers for demos and chaos tests: `demo.noop` completes, `demo.sleep`
 * waits `{"ms":N}`, `demo.fail` always throws (with `{"error":"…"}` as its
 * message when given, so a demo's failed list reads like a real one),
 * `demo.flaky` throws with probability `{"p":0.3}`, and `demo.record` waits
 * `{"ms":N}` like `demo.sleep`, then appends "id attempt holder" to the
 * demo:runs list (QueueKeys.demoRuns) before the job is completed, so a test
 * can tell which claim ran each job, and a job that ran twice.
 */
export function demoHandlers(queue: RedisQueue): Readonly<Record<string, JobHandler>> {
  return {
    'demo.noop': () => undefined,
    'demo.sleep': (payload, { signal }) => sleepUnlessAborted(numberField(payload, 'ms', 1000), signal, 'demo.sleep'),
    'demo.fail': (payload) => {
      throw new Error(textField(payload, 'error') ?? 'demo.fail always fails');
    },
    'demo.flaky': (payload) => {
      const probability = numberField(payload, 'p', 0.3);
      if (Math.random() < probability) throw new Error(`demo.flaky failed (p=${probability})`);
    },
    'demo.record': async (payload, { job, signal }) => {
      await sleepUnlessAborted(numberField(payload, 'ms', 0), signal, 'demo.record');
      await queue.redis.rpush(queue.keys.demoRuns, `${job.id} ${job.attempts} ${job.fields.reserved_by}`);
    },
  };
}
