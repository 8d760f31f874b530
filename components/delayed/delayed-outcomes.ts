/** What the delayed timeline's actions did, in words for a toast; the actions are app/queues/[queue]/delayed/actions.ts. */

import { formatUtc } from '@/components/ui/format-moment';

export interface Outcome {
  tone: 'success' | 'error';
  message: string;
}

function jobs(count: number): string {
  return `${count} ${count === 1 ? 'job' : 'jobs'}`;
}

/** A whole "promote due jobs now" run: every step's promoted and vanished ids added up. */
export function promoteOutcome({ promoted, vanished, cancelled, error }: { promoted: number; vanished: number; cancelled: boolean; error?: string }): Outcome {
  const gone = vanished > 0 ? `; ${jobs(vanished)} already deleted ${vanished === 1 ? 'was' : 'were'} removed from the delayed jobs` : '';
  if (error !== undefined) return { tone: 'error', message: promoted + vanished > 0 ? `Moved ${jobs(promoted)} in${gone}, then: ${error}` : error };
  if (cancelled) return { tone: 'success', message: `Stopped after moving ${jobs(promoted)} in${gone}` };
  if (promoted + vanished === 0) return { tone: 'error', message: 'No job was due any more: a worker moved them in meanwhile' };
  return { tone: 'success', message: `Moved ${jobs(promoted)} into ${promoted === 1 ? 'its level' : 'their levels'}${gone}` };
}

/** What running one delayed job now did. */
export function runNowOutcome(
  id: number,
  result: { outcome: 'promoted'; level: string } | { outcome: 'not-delayed' | 'gone' } | { outcome: 'held'; holder: string; until: number },
): Outcome {
  switch (result.outcome) {
    case 'held':
      return {
        tone: 'error',
        message: `Job ${id} stays parked: ${result.holder === '' ? 'its holder' : result.holder} holds its claim until ${formatUtc(result.until, result.until)}, and running it now would run it a second time beside that worker. It runs once the claim ends.`,
      };
    case 'promoted':
      return { tone: 'success', message: `Job ${id} is ready: it joined level ${result.level}` };
    case 'gone':
      return { tone: 'error', message: `Job ${id} is gone: it was deleted, so it was only removed from the delayed jobs` };
    case 'not-delayed':
      return { tone: 'error', message: `Job ${id} was no longer delayed: a worker moved it in meanwhile, or it already ran` };
  }
}
