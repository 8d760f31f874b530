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
export function retryOutcome(
  id: string,
  result: { requeued: readonly string[]; notFailed: readonly string[]; missing: readonly string[]; refused: readonly { id: string; why: string }[] },
): Outcome {
  if (result.requeued.includes(id)) return { tone: 'success', message: `Retried job ${id}` };
  if (result.missing.includes(id)) {
    return { tone: 'error', message: `Job ${id} is gone: it was already deleted, so it was only removed from the failed list` };
  }
  const refused = result.refused.find((refusal) => refusal.id === id);
  if (refused !== undefined) return { tone: 'error', message: `Job ${id} was not retried: ${refused.why}` };
  return { tone: 'error', message: `Job ${id} was no longer failed` };
}

/** What forgetting one job did, for a toast. */
export function forgetOutcome(id: number | string, result: { forgotten: number }): Outcome {
  return result.forgotten > 0 ? { tone: 'success', message: `Forgot job ${id}` } : { tone: 'error', message: `Job ${id} was no longer failed` };
}
