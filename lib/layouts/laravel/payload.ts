import { cutJsonString } from '../cut-json';
import { parsePhpSerialized, type PhpParse } from '../php-serialized';

/**
 * A Laravel queue payload (Illuminate\Queue\Queue::createPayloadArray and
 * RedisQueue's additions): JSON with `uuid`, `displayName`, `job`,
 * `maxTries`, `maxExceptions`, `backoff`, `timeout`, `retryUntil`,
 * `data.commandName`, `data.command` (the job object PHP-serialized, or
 * encrypted when the job implements ShouldBeEncrypted), `id` and `attempts`.
 */
export interface LaravelPayload {
  /** RedisQueue's `id` (32 random characters), else the `uuid`; null when it has neither */
  id: string | null;
  uuid: string | null;
  /** `displayName`, else `data.commandName`; null when neither is text */
  name: string | null;
  /** reservations so far: the pop script adds one to the copy it reserves */
  attempts: number;
  /** the decoded JSON; null when the payload is not a JSON object */
  json: Record<string, unknown> | null;
  /** why the payload could not be read, null when it could */
  problem: string | null;
}

const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** Reads one stored payload; never throws. */
export function readLaravelPayload(bytes: Buffer): LaravelPayload {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    return { id: null, uuid: null, name: null, attempts: 0, json: null, problem: `not JSON: ${(error as Error).message}` };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return { id: null, uuid: null, name: null, attempts: 0, json: null, problem: 'JSON, but not an object as Laravel writes' };
  }
  const payload = json as Record<string, unknown>;
  const data = typeof payload.data === 'object' && payload.data !== null ? (payload.data as Record<string, unknown>) : {};
  const uuid = text(payload.uuid);
  const attempts = Number(payload.attempts);
  return {
    id: text(payload.id) ?? uuid,
    uuid,
    name: text(payload.displayName) ?? text(data.commandName),
    attempts: Number.isFinite(attempts) ? attempts : 0,
    json: payload,
    problem: null,
  };
}

/**
 * The job's name from a payload's first bytes (`bytes` long in all), as
 * readLaravelPayload names it: `displayName`, else `data.commandName`. A
 * cut (or broken) payload is no JSON, so its strings are read as far as
 * they go: Laravel writes `displayName` second, after the uuid, and
 * `commandName` before the command, the long part.
 */
export function laravelNameOfHead(head: Buffer, bytes: number): string | null {
  const whole = bytes <= head.length ? readLaravelPayload(head) : null;
  if (whole?.json) return whole.name;
  const text = head.toString('utf8');
  return cutJsonString(text, 'displayName') ?? cutJsonString(text, 'commandName') ?? null;
}

/** Laravel's Encrypter writes base64 of a JSON object with `iv`, `value` and `mac`: the command of a ShouldBeEncrypted job. */
function looksEncrypted(command: string): boolean {
  try {
    const envelope = JSON.parse(Buffer.from(command, 'base64').toString('utf8')) as Record<string, unknown>;
    return typeof envelope === 'object' && envelope !== null && 'iv' in envelope && 'mac' in envelope;
  } catch {
    return false;
  }
}

/** What `data.command` is: the job PHP-serialized (parsed, never instantiated), encrypted (never decrypted), or absent. */
export type LaravelCommand = { kind: 'php'; parse: PhpParse } | { kind: 'encrypted' } | { kind: 'none' };

export function commandOf(payload: LaravelPayload): LaravelCommand {
  const data = payload.json?.data;
  const command = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).command : undefined;
  if (typeof command !== 'string') return { kind: 'none' };
  if (looksEncrypted(command)) return { kind: 'encrypted' };
  return { kind: 'php', parse: parsePhpSerialized(Buffer.from(command, 'utf8')) };
}
