import type { RedisConnection } from '../../redis/connection';
import { luaScript } from '../../redis/lua-script';
import type { FindMatch, FindQuery, FindState } from '../../shapes/find';
import type { LayoutCounts } from '../adapter';
import { findChunkReply } from '../find-in-jobs';
import { findStep, readSizedChunk, SNIPPET_BYTES, snippetOf, VALUES_CHUNK_BUDGET, type ChunkRead, type FindPart, type FindPlan } from '../find-steps';
import { indexSizes, readInOneRoundTrip } from '../find-together';
import { indexOfNeedle, needleOf, type FindNeedle } from '../find-text';
import type { JobFinder } from '../pages';
import type { Yii2Keys } from './keys';
import { messageOutline, type Yii2MessageOutline } from './message';

/** Bytes of each message a step decodes: what the job page shows of it. */
const MESSAGE_BYTES = 64 * 1024;

export const findMessages = luaScript({
  file: 'yii2/find-messages-3.lua',
  keys: ['messages', 'reserved', 'delayed'],
  args: ['cursor', 'count', 'limit', 'states', 'timeFrom', 'timeUntil', 'id', 'every', 'text', 'anchor', 'ignoreCase'],
  bytes: true,
  reply: (reply) => findChunkReply(reply, 4, (at) => ({ id: String(at(0)), state: String(at(1)) as FindState, length: Number(at(2)), head: at(3) as Buffer })),
});

/**
 * Characters a JSON encoder may not write as they are inside a string, or
 * that are JSON structure outside one: all but printable ASCII, the quote
 * and the backslash, the structure (`{}[]:,`), and what some encoders
 * escape (`/` by PHP's json_encode; `<>&'` under its JSON_HEX_* flags, and
 * by Go's). Any character may be written `\uXXXX`, but no encoder does so
 * for the others (letters, digits, the space, `-_.@#` …).
 */
const NOT_AS_WRITTEN_IN_JSON = /[^\x20-\x7e]|["\\/<>&'{}[\]:,]/u;
/** Characters a number may be written with: `1e2` reads `100` once parsed and written again. */
const NUMBER_LIKE = /^[0-9eE.+-]*$/;

/**
 * The longest piece of `text` that every JSON message the decoding matches
 * holds as it is in its bytes: a run of characters encoders write as they
 * are, not all of them a number's (a match of such a piece lies inside one
 * string or keyword, since the structure around tokens is not in it). ''
 * when there is none: every JSON message could match.
 */
export function jsonAnchor(text: string): string {
  const runs = text.split(NOT_AS_WRITTEN_IN_JSON).filter((run) => !NUMBER_LIKE.test(run));
  return runs.reduce((longest, run) => (run.length > longest.length ? run : longest), '');
}

/**
 * What find-messages-3.lua sends a message back for (a superset of what
 * matchOf matches): the id equal to the text; the text in a message's bytes
 * (a PHP serialization's class and data are its bytes); for JSON, which is
 * read parsed and written again, the text's jsonAnchor. A class name that is
 * no UTF-8 reads with `\xNN` escapes, which its bytes do not hold: a text
 * with `\x` in it makes every message a candidate.
 */
export function messageFilter(query: FindQuery): { id: string; every: '0' | '1'; text: string; anchor: string; ignoreCase: '0' | '1' } {
  const content = query.field !== 'id';
  return {
    id: query.field === 'any' || query.field === 'id' ? query.text : '',
    every: content && /\\x/i.test(query.text) ? '1' : '0',
    text: content ? query.text : '',
    anchor: content ? jsonAnchor(query.text) : '',
    ignoreCase: query.ignoreCase ? '1' : '0',
  };
}

/**
 * A message's data as a user reads it on the job page: a PHP serialization's
 * strings are its own bytes, so its body is matched as stored; JSON is
 * parsed and written again, so `\/` and `\u00e9` read as `/` and `é`.
 */
function readableBody(message: Yii2MessageOutline): Buffer {
  if (message.json !== undefined) return Buffer.from(JSON.stringify(message.json), 'utf8');
  return Buffer.from(message.body.buffer, message.body.byteOffset, message.body.byteLength);
}

/**
 * The match in one message, null when it does not match: its class for the
 * name, its data for the payload; yii2 keeps no errors. An id is equal or
 * nothing, whatever the case rule.
 */
function matchOf(row: ReturnType<typeof findMessages.reply>['rows'][number], queue: string, query: FindQuery, needle: FindNeedle): FindMatch | null {
  const message = messageOutline(row.head, row.length);
  const name = message.className ?? '';
  const found = (field: FindMatch['field'], value: Buffer): FindMatch | null => {
    const at = indexOfNeedle(value, needle);
    if (at < 0) return null;
    const window = value.subarray(Math.max(0, at - SNIPPET_BYTES), at + needle.bytes.length + SNIPPET_BYTES);
    const snippet = snippetOf(window, needle);
    return snippet && { id: row.id, queue, state: row.state, name, field, snippet };
  };
  const wants = (field: FindMatch['field']) => query.field === 'any' || query.field === field;
  if (wants('id') && row.id === query.text) return found('id', Buffer.from(row.id));
  return (wants('name') ? found('name', Buffer.from(name, 'utf8')) : null) ?? (wants('payload') ? found('payload', readableBody(message)) : null);
}

/** The arguments of one call of find-messages over a channel from `position` ('' to start), `count` messages. */
function messagesCall(keys: Yii2Keys, position: string, query: FindQuery, states: readonly FindState[], count: number) {
  return {
    ...keys.byName,
    cursor: position === '' ? '0' : position,
    count,
    limit: MESSAGE_BYTES,
    states: `,${states.join(',')},`,
    timeFrom: String(query.range?.from ?? ''),
    timeUntil: String(query.range?.until ?? ''),
    ...messageFilter(query),
  };
}

/** What one call over a channel read, its messages decoded and matched as the job page reads them. */
function messagesRead(reply: ReturnType<typeof findMessages.reply>, part: FindPart, query: FindQuery): ChunkRead {
  const needle = needleOf(query);
  return {
    matches: reply.rows.flatMap((row) => matchOf(row, part.key, query, needle) ?? []),
    looked: reply.looked,
    next: reply.next === '0' ? null : reply.next,
    bytes: reply.bytes,
  };
}

/**
 * Find on yii2 (stock and ng): each channel's `.messages` hash, every
 * message decoded as the job page decodes it, its state from the indexes.
 * yii2 keeps no failed jobs.
 */
export function yii2Finder(connection: RedisConnection, channels: readonly Yii2Keys[], counts: () => Promise<LayoutCounts>): JobFinder {
  const byChannel = new Map(channels.map((keys) => [keys.channel, keys]));
  const keysOf = (part: FindPart) => byChannel.get(part.key)!;
  const plan: FindPlan = {
    states: ['ready', 'delayed', 'reserved'],
    // Neither driver records when a message was pushed: a waiting one has no time.
    times: { delayed: 'when it is due', reserved: 'when its reservation expires' },
    queues: async () => channels.map((keys) => keys.channel),
    partsOf: async (channel) => {
      const keys = byChannel.get(channel);
      return keys ? [{ states: ['ready', 'delayed', 'reserved'], key: channel, kind: 'messages', timeScale: 1000 }] : [];
    },
    sharedParts: [],
    counts,
    readChunk: (part, position, query, states, _options, size) =>
      readSizedChunk(VALUES_CHUNK_BUDGET, size, async (count) => {
        const reply = await connection.attempt(() => findMessages.run(connection.redis, messagesCall(keysOf(part), position, query, states, count)));
        return messagesRead(reply, part, query);
      }),
    // Small channels several a round trip: each weighs its messages, by count and by MEMORY USAGE.
    together: {
      sizes: (parts) =>
        indexSizes(
          connection,
          parts.map((part) => ({ length: 'hlen', key: keysOf(part).messages })),
          VALUES_CHUNK_BUDGET,
          true,
        ),
      read: (parts, counts, query, states, _options, size) =>
        readInOneRoundTrip(
          connection,
          VALUES_CHUNK_BUDGET,
          size,
          (pipeline) => parts.forEach((part, index) => findMessages.queue(pipeline, messagesCall(keysOf(part), '', query, states, counts[index]!))),
          (reply, index) => messagesRead(findMessages.reply(reply), parts[index]!, query),
        ),
    },
  };
  return {
    states: plan.states,
    times: plan.times,
    step: (query, cursor, taken, options) => findStep(plan, query, cursor, taken, options),
    // A message is written once under its id and never rewritten (a retry counts attempts in a hash of its own).
    stillMatching: async (_query, _of, ids) => new Set(ids),
  };
}
