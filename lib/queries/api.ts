import { currentPollInterval, POLL_INTERVAL_HEADER, serializePollInterval } from './poll-interval';
import { CONNECTION_HEADER, getTabConnection } from './tab-connection';

/**
 * The JSON every `app/api` route answers with: the read's value, or why there
 * is none. `error` is written for operators (a QueueError message naming the
 * Redis server); the HTTP status says the same for machines (503 when Redis
 * cannot be reached).
 */
export type ApiResult<T> = { ok: true; data: T } | { ok: false; error: string };

/**
 * The browser got no ApiResult at all: the QueueLens server is down or
 * restarting, the network dropped, or something in between (a proxy)
 * answered instead. Redis being unreachable is not this: that comes back as
 * an `ok: false` result.
 */
export class ApiUnavailableError extends Error {
  override readonly name = 'ApiUnavailableError';
}

function isApiResult(value: unknown): value is ApiResult<unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const result = value as Record<string, unknown>;
  return result.ok === true ? 'data' in result : result.ok === false && typeof result.error === 'string';
}

/**
 * GETs an `app/api` route. Resolves with its ApiResult whatever the status
 * (a 503 carries the reason Redis could not be read); throws
 * ApiUnavailableError only when no result came back.
 */
export async function fetchApi<T>(path: string, signal?: AbortSignal): Promise<ApiResult<T>> {
  let response: Response;
  try {
    const connection = getTabConnection();
    const headers = {
      accept: 'application/json',
      [POLL_INTERVAL_HEADER]: serializePollInterval(currentPollInterval()),
      ...(connection ? { [CONNECTION_HEADER]: connection } : {}),
    };
    response = await fetch(path, { signal, cache: 'no-store', headers });
  } catch (error) {
    // react-query aborts a fetch it no longer needs; that is not an outage.
    if (signal?.aborted) throw error;
    throw new ApiUnavailableError('Cannot reach the QueueLens server; it may be restarting.', { cause: error });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!isApiResult(body)) {
    const status = [response.status, response.statusText].filter(Boolean).join(' ');
    throw new ApiUnavailableError(`The QueueLens server answered ${status} instead of a result.`);
  }
  // The shape of `data` is the route's contract with its query, typed on both sides from one definition.
  return body as ApiResult<T>;
}
