import type { FindMatch, FindQuery } from '../shapes/find';
import type { JobFinder } from './pages';

/** A query of the text in payloads, every queue and state unless given. */
export function payloadQuery(text: string, scope: Partial<FindQuery> = {}): FindQuery {
  return { text, field: 'payload', queue: null, states: [], ...scope };
}

/** Every step of `query` to the end: the matches, the steps taken, and the last step's progress. */
export async function findAll(finder: JobFinder, query: FindQuery): Promise<{ matches: FindMatch[]; steps: number; looked: number; about: number }> {
  const matches: FindMatch[] = [];
  let cursor: string | null = null;
  for (let steps = 1; ; steps++) {
    const step = await finder.step(query, cursor);
    matches.push(...step.matches);
    if (step.cursor === null) return { matches, steps, looked: step.looked, about: step.about };
    if (steps > 10_000) throw new Error('the search does not end');
    cursor = step.cursor;
  }
}

/** Each match's state by its id. */
export function statesById(matches: readonly FindMatch[]): Record<string, string> {
  return Object.fromEntries(matches.map((match) => [match.id, match.state]));
}
