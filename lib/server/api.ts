import 'server-only';
import type { ApiResult } from '@/lib/queries/api';
import type { ReadResult } from './queue';

/**
 * An `app/api` route's response: the ApiResult as JSON, 200 when it holds
 * data, the refusal's status (401, 403, 409…) when the request was refused,
 * 503 when Redis cannot be reached, 500 for any other failure; a refusal
 * that says when to ask again carries it as `Retry-After`. Never cached
 * by the browser or a proxy: the server itself shares reads between requests
 * (readRedis), for less than one poll interval.
 */
export function apiResponse<T>(result: ReadResult<T>): Response {
  const status = result.ok ? 200 : (result.status ?? (result.unreachable ? 503 : 500));
  const body: ApiResult<T> = result.ok ? result : { ok: false, error: result.error };
  const headers: Record<string, string> = { 'cache-control': 'no-store' };
  if (!result.ok && result.retryAfterSeconds !== undefined) headers['retry-after'] = String(result.retryAfterSeconds);
  return Response.json(body, { status, headers });
}

/** A request whose parameters do not parse: 400, with what was expected. */
export function apiBadRequest(error: string): Response {
  const body: ApiResult<never> = { ok: false, error };
  return Response.json(body, { status: 400, headers: { 'cache-control': 'no-store' } });
}

/** What a request named is not there (a job that is gone): 404, saying what is missing. */
export function apiNotFound(error: string): Response {
  const body: ApiResult<never> = { ok: false, error };
  return Response.json(body, { status: 404, headers: { 'cache-control': 'no-store' } });
}
