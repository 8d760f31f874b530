import type { JobHandler } from './worker';

function numberField(payload: unknown, field: string, fallback: number): number {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

function textField(payload: unknown, field: string): string | undefined {
  const value = typeof payload === 'object' && payload !== null ? (payload as Record<string, unknown>)[field] : undefined;
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Handlers for demos and chaos tests: `demo.noop` completes, `demo.sleep`
 * waits `{"ms":N}`, `demo.fail` always throws (with `{"error":"…"}` as its
 * message when given, so a demo's failed list reads like a real one),
 * `demo.flaky` throws with probability `{"p":0.3}`.
 */
export const demoHandlers: Readonly<Record<string, JobHandler>> = {
  'demo.noop': () => undefined,
  'demo.sleep': (payload, { signal }) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, numberField(payload, 'ms', 1000));
      signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(new Error('demo.sleep was cut short by the timeout'));
      });
    }),
  'demo.fail': (payload) => {
    throw new Error(textField(payload, 'error') ?? 'demo.fail always fails');
  },
  'demo.flaky': (payload) => {
    const probability = numberField(payload, 'p', 0.3);
    if (Math.random() < probability) throw new Error(`demo.flaky failed (p=${probability})`);
  },
};
