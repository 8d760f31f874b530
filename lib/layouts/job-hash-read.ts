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
export type JobHashReply = { type: 'hash'; fields: { name: string; bytes: number; prefix: Buffer }[] } | { type: 'hash'; tooMany: number } | { type: string };

/** The script's reply read; `held`, the read it answers, completes the prefixes it left out. */
export function jobHashOf(reply: (Buffer | number | null)[], held: HeldForRead): JobHashReply {
  const [type, ...rest] = reply;
  const typeName = String(type);
  if (typeName !== 'hash') return { type: typeName };
  if (rest.length === 1) return { type: 'hash', tooMany: Number(rest[0]) };
  const fields: { name: string; bytes: number; prefix: Buffer }[] = [];
  for (let index = 0; index + 2 < rest.length; index += 3) {
    const name = String(rest[index]);
    const bytes = Number(rest[index + 1]);
    fields.push({ name, bytes, prefix: held.fill(name, bytes, rest[index + 2] as Buffer | null) });
  }
  return { type: 'hash', fields };
}
