/** What moving a queue's due jobs did, in words for a toast; the repair is moveDueJobsNow of app/queues/[queue]/line-actions.ts. */

export interface Outcome {
  tone: 'success' | 'error';
  message: string;
}

function jobs(count: number): string {
  return `${count} ${count === 1 ? 'job' : 'jobs'}`;
}

/**
 * A whole "move due jobs now" run: every step's moved and gone ids added up.
 * `into` is where the layout's due jobs go (StaticPHP: "its level", "their
 * levels"; "the line" where the layout does not say).
 */
export function moveDueOutcome({
  queue,
  into,
  moved,
  gone,
  cancelled,
  error,
}: {
  queue: string;
  into: { one: string; many: string };
  moved: number;
  gone: number;
  cancelled: boolean;
  error?: string;
}): Outcome {
  const goneText = gone > 0 ? `; ${jobs(gone)} already deleted ${gone === 1 ? 'was' : 'were'} removed from the delayed jobs` : '';
  if (error !== undefined) return { tone: 'error', message: moved + gone > 0 ? `Moved ${jobs(moved)} in${goneText}, then: ${error}` : error };
  if (cancelled) return { tone: 'success', message: `Stopped after moving ${jobs(moved)} in${goneText}` };
  if (moved + gone === 0) return { tone: 'error', message: `No job of ${queue} was due any more: a worker moved them in meanwhile` };
  return {
    tone: 'success',
    message: `Moved ${jobs(moved)} into ${moved === 1 ? into.one : into.many}${goneText}. The due jobs of ${queue} are in ${into.many}, where its driver would have put them.`,
  };
}
