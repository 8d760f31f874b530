/** Reading and reporting the failed-job actions of the job page; the actions themselves are app/failed/actions.ts. */

/** The same bound the retry action checks; checked here too, so a mistake is pointed at the input at once. */
const MAX_ATTEMPTS_LIMIT = 1000;

export type MaxAttemptsInput = { ok: true; value: number | undefined } | { ok: false; error: string };

/** The retry form's "max attempts": empty keeps the job's own, otherwise a whole number from 1 to 1000. */
export function parseMaxAttempts(text: string): MaxAttemptsInput {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: undefined };
  const value = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || value < 1 || value > MAX_ATTEMPTS_LIMIT) {
    return { ok: false, error: `Max attempts is a whole number from 1 to ${MAX_ATTEMPTS_LIMIT}; leave it empty to keep the job's own.` };
  }
  return { ok: true, value };
}

export interface Outcome {
  tone: 'success' | 'error';
  message: string;
}

/** What a retry of one job did, for a toast. */
export function retryOutcome(id: number, result: { requeued: readonly number[]; notFailed: readonly number[]; missing: readonly number[] }): Outcome {
  if (result.requeued.includes(id)) return { tone: 'success', message: `Retried job ${id}` };
  if (result.missing.includes(id)) {
    return { tone: 'error', message: `Job ${id} is gone: it was already deleted, so it was only removed from the failed list` };
  }
  return { tone: 'error', message: `Job ${id} was no longer failed` };
}

/** What forgetting one job did, for a toast. */
export function forgetOutcome(id: number | string, result: { forgotten: number }): Outcome {
  return result.forgotten > 0 ? { tone: 'success', message: `Forgot job ${id}` } : { tone: 'error', message: `Job ${id} was no longer failed` };
}
