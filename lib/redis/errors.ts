import { ReplyError } from 'ioredis';

const QUEUE_ERROR = Symbol.for('queuelens.QueueError');

/** The one error type the driver throws: a message fit to show an operator. */
export class QueueError extends Error {
  override readonly name = 'QueueError';
  readonly [QUEUE_ERROR] = true;

  // A bundler may load this module more than once (Next.js keeps one copy
  // per server layer while the connection is shared by all of them), and
  // each copy has its own class: instanceof asks for the brand instead.
  static override [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === 'object' && value !== null && (value as { [QUEUE_ERROR]?: boolean })[QUEUE_ERROR] === true;
  }

  /** Redis could not be reached at all, as opposed to refusing or the input being wrong */
  readonly unreachable: boolean;
  /** the request itself was wrong (a key outside the prefix, a cursor that is not one): the caller's fault, an HTTP 400 */
  readonly invalidRequest: boolean;
  /** the request names a queue or job the connection does not have: an HTTP 404, and a page that says what was looked for */
  readonly notFound: boolean;

  constructor(message: string, options?: { cause?: unknown; unreachable?: boolean; invalidRequest?: boolean; notFound?: boolean }) {
    super(message, options);
    this.unreachable = options?.unreachable ?? false;
    this.invalidRequest = options?.invalidRequest ?? false;
    this.notFound = options?.notFound ?? false;
  }
}

/** Failure codes the Lua scripts return as `{code, key}`; mirrors `ErrorCode` in lua/includes/layout.lua. */
export enum ScriptErrorCode {
  JobIdTaken = -1,
  WrongKeyType = -2,
  MovingLockHeld = -3,
  LiveReservation = -4,
  BeyondReach = -5,
}

export function scriptErrorMessage(code: number, key: string): string {
  switch (code) {
    case ScriptErrorCode.JobIdTaken:
      return `The next job id is already taken by ${key}: queue:seq is behind the highest job id, and pushing would overwrite a job. Set the counter above the highest id before pushing again.`;
    case ScriptErrorCode.WrongKeyType:
      return `The key ${key} holds the wrong Redis type for the queue layout; nothing was changed. Inspect or remove that key.`;
    case ScriptErrorCode.MovingLockHeld:
      return `${key} is held: a stock yii2 worker is moving due and expired jobs right now (or, when it never expires, a clear() died halfway). Nothing was changed; try again in a second, or let the doctor delete a lock that never expires.`;
    case ScriptErrorCode.LiveReservation:
      return `The reservation in ${key} has not run out yet: its worker may still be running the job. Nothing was changed; reclaim it instead if you know the worker is gone (the job may then run twice).`;
    case ScriptErrorCode.BeyondReach:
      return `The job is not near either end of ${key}, a list too long to walk whole without holding Redis for milliseconds: nothing was changed; remove it once the workers bring it nearer the head.`;
    default:
      return `A queue script failed with unknown code ${code} on ${key}.`;
  }
}

/** Redis errors that mean the server could not be reached, as opposed to a refused command. */
function isConnectionFailure(error: Error): boolean {
  return (
    // By message too: ioredis names the error after its constructor, which a
    // minifying bundler renames.
    error.name === 'MaxRetriesPerRequestError' ||
    /max retries per request|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|EHOSTUNREACH|EPIPE|Connection is closed|connect ETIMEDOUT|Stream isn't writeable|Command timed out/i.test(
      error.message,
    ) ||
    // A cluster that lost the node of a slot, or every node (ioredis gives up redirecting while it finds out).
    /^CLUSTERDOWN|Cluster isn't ready|None of startup nodes is available|Failed to refresh slots cache|Too many Cluster redirections/.test(error.message)
  );
}

/**
 * What a failed Redis call means for the caller. A dead server reads as the
 * spec's "The queue could not reach redis: …", naming the server, so that a
 * worker backs off and an operator knows where to look; a command Redis
 * refused (WRONGTYPE, OOM, NOPERM…) says so instead of blaming the network.
 * Anything else is a bug of ours and is returned as it is.
 */
/** How a queue operation reports a command Redis refused, given Redis' own error text. */
export function refusedCommand(redisError: string): string {
  return `Redis refused a queue command: ${redisError}`;
}

export function asQueueError(error: unknown, server: string): unknown {
  if (error instanceof QueueError || !(error instanceof Error)) return error;
  if (isConnectionFailure(error)) {
    // ioredis's own wording for this case points at its options, not at the server.
    const reason = /max retries per request/i.test(error.message) ? 'the connection dropped and reconnecting failed' : error.message;
    return new QueueError(`The queue could not reach redis: ${server} (${reason})`, { cause: error, unreachable: true });
  }
  if (error instanceof ReplyError) return new QueueError(refusedCommand(error.message), { cause: error });
  return error;
}
