import { streamIdMs } from '../shapes/stream-ids';

/**
 * What one audit entry is, apart from where it is kept (audit-log.ts): the
 * types, the vocabulary and the bounds, free of any Redis import so the
 * browser's filter form can share them.
 */

export const AUDIT_ROLES = ['viewer', 'operator'] as const;
export type AuditRole = (typeof AUDIT_ROLES)[number];

/** ok: it ran; refused: the role may not do it (nothing ran); failed: it ran into an error. */
export const AUDIT_RESULTS = ['ok', 'refused', 'failed'] as const;
export type AuditResult = (typeof AUDIT_RESULTS)[number];

/**
 * The server actions that change something, as the audit log names them:
 * the action wrapper records each under one of these (its type says so), and
 * the filter offers them before any entry has been read; names found in
 * entries are offered too.
 */
export const AUDITED_ACTIONS = [
  'retry failed jobs',
  "edit a failed job's payload and retry it",
  'forget failed jobs',
  'retry all failed jobs (one step)',
  'forget all failed jobs (one step)',
  'release a reservation',
  'fail a reservation',
  'clean up a tombstone',
  'promote due jobs (one step)',
  'run a delayed job now',
  'repair doctor findings',
  'remove a job',
  'remove jobs found by a search',
  'retry every failed match of a search (one step)',
  'forget every failed match of a search (one step)',
  'remove every live match of a search (one step)',
  'put an expired reservation back in line',
  'end a live reservation',
  'restore jobs from the trash',
  'push a job',
  'run a copy of a job',
  'silence an alert',
] as const;
export type AuditedAction = (typeof AUDITED_ACTIONS)[number];

/** One mutation made through QueueLens, as it is stored. */
export interface AuditEntry {
  /** the stream entry id, `{ms}-{seq}`: its time part is the Redis server's clock */
  id: string;
  /** when it was recorded, ISO-8601 UTC, from the stream id */
  at: string;
  who: string;
  role: AuditRole;
  /** the name of the Redis connection it acted on */
  connection: string;
  action: string;
  /** what it acted on, e.g. "jobs 12, 13, 14 (+97 more)" or "all failed before 2026-11-01" */
  target: string;
  result: AuditResult;
  /** what came of it, e.g. "retried 97, 3 no longer failed", or the error message */
  detail: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'>;

/**
 * An entry as read back. The stream may hold entries QueueLens did not
 * write as they should be (by hand, another version, a damaged copy): a
 * missing field reads as '' and a role or result outside the known values
 * as it was stored, and `damaged` names those fields so the page can say so.
 */
export interface AuditRecord extends Omit<AuditEntry, 'role' | 'result'> {
  role: string;
  result: string;
  damaged: string[];
}

/** What the log can be filtered by; blank or missing fields do not filter. */
export interface AuditFilter {
  /** exact action name */
  action?: string;
  /** exact operator name */
  who?: string;
  /** exact role */
  role?: string;
  /** exact result */
  result?: string;
  /** part of who, target or detail, any case */
  text?: string;
}

/** One bounded read of the log, newest first. */
export interface AuditPage {
  /** the entries found, newest first: every entry looked at, or the ones matching the filter */
  entries: AuditRecord[];
  /** the id of the newest entry looked at; null when none was */
  newestSeen: string | null;
  /** where the next read continues towards older entries (its `before`); null when this read reached the oldest entry */
  next: string | null;
  /** when the oldest entry looked at was recorded, ISO-8601 UTC; null when none was */
  reachedAt: string | null;
  /** entries looked at by this read */
  scanned: number;
  /** the log's length when read */
  total: number;
  /** the Redis server's clock at the read, unix seconds, to say "3 min ago" without the browser's clock */
  now: number;
}

/**
 * The most bytes (UTF-8) each text field keeps, so that an entry takes at
 * most about 1.35 KB of Redis memory whatever an action is given (a
 * 60,000-character failure reason, a list of 200 ids). A failure reason
 * cut short here is still whole in the job's own `error` field.
 */
export const AUDIT_FIELD_LIMITS = {
  who: 128,
  connection: 64,
  action: 64,
  target: 256,
  detail: 512,
} as const satisfies Record<Exclude<keyof NewAuditEntry, 'role' | 'result'>, number>;

const encoder = new TextEncoder();
// Not fatal: text cut inside a character never reaches it, and lone surrogates were already replaced by encode().
const decoder = new TextDecoder();

/**
 * `text` as Redis will store it, at most `maxBytes` bytes of UTF-8: longer
 * text is cut at a character boundary and ends with a marker saying how long
 * it was. Lone surrogates (text that is not valid Unicode) become U+FFFD, as
 * they would on the way to Redis anyway, so what is returned is what is stored.
 */
export function cutText(text: string, maxBytes: number): string {
  // Every UTF-16 unit takes at least one byte: past maxBytes units the text is too long whatever they are.
  const bytes = encoder.encode(text.length > maxBytes ? text.slice(0, maxBytes) : text);
  if (text.length <= maxBytes && bytes.length <= maxBytes) return decoder.decode(bytes);
  const marker = [`… [cut, ${text.length} characters in all]`, '…', ''].find((candidate) => encoder.encode(candidate).length <= maxBytes) ?? '';
  let end = maxBytes - encoder.encode(marker).length;
  // Back off to the start of the character the cut falls in.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return decoder.decode(bytes.subarray(0, end)) + marker;
}

/** The entry as it will be stored: every text field within AUDIT_FIELD_LIMITS. */
export function boundAuditEntry(entry: NewAuditEntry): NewAuditEntry {
  const limits = AUDIT_FIELD_LIMITS;
  return {
    who: cutText(entry.who, limits.who),
    role: entry.role,
    connection: cutText(entry.connection, limits.connection),
    action: cutText(entry.action, limits.action),
    target: cutText(entry.target, limits.target),
    result: entry.result,
    detail: cutText(entry.detail, limits.detail),
  };
}

/** A stream id's time part, ISO-8601 UTC; '' for something that is not a stream id. */
export function streamIdTime(id: string): string {
  const ms = streamIdMs(id);
  return id !== '' && Number.isSafeInteger(ms) ? new Date(ms).toISOString() : '';
}
