import { QueueError } from '../redis/errors';
import { luaScript } from '../redis/lua-script';
import type { HeldForRead } from './held-prefixes';

/**
 * One job hash, each value cut at `limit` bytes: StaticPHP's job page and
 * marko's job rows read their hashes alike (held-prefixes.ts names what it
 * may leave out).
 */
export const readJobHash = luaScript({
  file: 'shared/read-job-1.lua',
  keys: ['job'],
  args: ['limit', 'maxFields'],
  /** (field, length) pairs of values whose first bytes the caller holds */
  rest: 'heldLengths',
  // A job's values are shown whatever their encoding.
  bytes: true,
  reply: (reply) => reply as (Buffer | number | null)[],
});

/** j:{id} as lua/shared/read-job-1.lua reads it: each field's name, stored length and first bytes, or the key's type when it is no hash. */
export type JobHashReply = { type: 'hash'; fields: JobHashField[] } | { type: 'hash'; tooMany: number } | { type: string };

/** A field of a job hash as read: its name, its stored length and its first bytes. */
export interface JobHashField {
  name: string;
  bytes: number;
  prefix: Buffer;
}

/** The script's reply read; `held`, the read it answers, completes the prefixes it left out. */
export function jobHashOf(reply: (Buffer | number | null)[], held: HeldForRead): JobHashReply {
  const [type, ...rest] = reply;
  const typeName = String(type);
  if (typeName !== 'hash') return { type: typeName };
  if (rest.length === 1) return { type: 'hash', tooMany: Number(rest[0]) };
  const fields: JobHashField[] = [];
  for (let index = 0; index + 2 < rest.length; index += 3) {
    const name = String(rest[index]);
    const bytes = Number(rest[index + 1]);
    fields.push({ name, bytes, prefix: held.fill(name, bytes, rest[index + 2] as Buffer | null) });
  }
  return { type: 'hash', fields };
}

/** A job page's hash (`key`) read whole: its fields, or null when the key is gone; a QueueError when it is no hash, or has too many fields to show. */
export function jobPageFields(key: string, hash: JobHashReply): JobHashField[] | null {
  if (hash.type === 'none') return null;
  if ('fields' in hash) return hash.fields;
  throw new QueueError(
    'tooMany' in hash ? `${key} has ${hash.tooMany} fields: too many for a job hash to be read whole` : `${key} is a ${hash.type}, not a job hash`,
  );
}
