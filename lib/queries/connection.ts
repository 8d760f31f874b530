import type { LiveSnapshot } from './live';

/**
 * What the header says about the data on screen:
 * - waiting: nothing live on this page has answered yet, or nothing on it is live;
 * - live: every latest answer had data;
 * - failing: the QueueLens server answered that it could not read Redis;
 * - offline: a request got no answer at all (the QueueLens server is down).
 */
export interface Connection {
  state: 'waiting' | 'live' | 'failing' | 'offline';
  /** why, when failing or offline */
  error: string | null;
  /** the newest successful read among the page's live queries, ms since the epoch */
  readAt: number | null;
}

export const WAITING: Connection = { state: 'waiting', error: null, readAt: null };

/** The parts of a live query's state (react-query's QueryState) that tell how its latest read went. */
export interface LiveQueryState {
  data: LiveSnapshot<unknown> | undefined;
  /** react-query clears it on the next success, so set means the latest request failed */
  error: Error | null;
}

function latestAnswer({ data, error }: LiveQueryState): Connection {
  const readAt = data?.readAt ?? null;
  if (error) return { state: 'offline', error: error.message, readAt };
  if (data === undefined) return WAITING;
  if (data.error !== null) return { state: 'failing', error: data.error, readAt };
  return { state: 'live', error: null, readAt };
}

const SEVERITY: Record<Connection['state'], number> = { waiting: 0, live: 1, failing: 2, offline: 3 };

/** One status for the page's live queries: the worst of their latest answers, as of the newest data. */
export function summarizeConnection(queries: readonly LiveQueryState[]): Connection {
  let summary = WAITING;
  let readAt: number | null = null;
  for (const query of queries) {
    const answer = latestAnswer(query);
    if (SEVERITY[answer.state] > SEVERITY[summary.state]) summary = answer;
    if (answer.readAt !== null && (readAt === null || answer.readAt > readAt)) readAt = answer.readAt;
  }
  return summary.readAt === readAt ? summary : { ...summary, readAt };
}

export function sameConnection(a: Connection, b: Connection): boolean {
  return a.state === b.state && a.error === b.error && a.readAt === b.readAt;
}
