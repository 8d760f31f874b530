import { bytesToText } from '../shapes/display-text';
import { isUnderPrefix, KEY_NAME_LIMIT, keyAddressOf, readKeyContentsWhere, readKeyFacts, sizeCommand } from './key-layout';
import { nodeServingPrefix } from '../redis/client';
import { QueueError } from '../redis/errors';
import { settlePipeline } from '../redis/pipeline';
import type { RedisConnection } from '../redis/connection';
import { patternUnder, scanStepBuffers } from '../redis/scan-keys';
import { isScanCursor } from '../shapes/stream-ids';
import type { KeyContents } from './key-layout';
import type { KeyRow, KeyTable, KeyType, LayoutCensusStep, NamedKey } from './pages';

/**
 * The keys page's machinery every layout without StaticPHP's page shares:
 * the facts of a list of known keys, read in pipelined batches, and a
 * census over one or more key patterns in bounded SCAN steps. Each layout
 * says which keys it has, what they hold and what a key it meets is.
 */

/** A key the layout expects, before it is read. */
export type PlannedKey = Pick<KeyRow, 'key' | 'holds' | 'queue' | 'expectedType'> & { expires?: boolean };

/** Keys per pipelined batch of TYPE/TTL/MEMORY USAGE and of size reads. */
const BATCH = 200;
/** Keys SCAN looks at per census step, in SCAN commands of SCAN_COUNT (250). */
export const TABLE_CENSUS_SCAN_KEYS = 1000;
/** Strangers and wrong-typed keys one step names; the rest are counted. */
export const TABLE_CENSUS_NAMED_PER_STEP = 200;

/** The planned keys with their type against the expected one, size, memory and TTL: reads only, two round trips per BATCH keys. */
export async function readKeyRows(connection: RedisConnection, planned: readonly PlannedKey[]): Promise<KeyRow[]> {
  const rows: KeyRow[] = [];
  for (let start = 0; start < planned.length; start += BATCH) {
    const batch = planned.slice(start, start + BATCH);
    const facts = await readKeyFacts(connection, batch);
    const read = batch.map(({ expires = false, ...plan }, index): KeyRow => {
      const fact = facts[index]!;
      const ttlWrong = expires ? fact.type !== 'none' && fact.ttlSeconds === null : fact.ttlSeconds !== null;
      return { ...plan, ...fact, expires, ttlWrong };
    });
    const sizes = connection.redis.pipeline();
    const asked = read.filter((row) => sizeCommand(row.type) !== null);
    for (const row of asked) sizes.call(sizeCommand(row.type)!, row.key);
    const sizeReplies = asked.length > 0 ? await settlePipeline(sizes) : [];
    asked.forEach((row, index) => {
      const reply = sizeReplies[index];
      if (reply instanceof Error) row.error = reply.message;
      else row.size = Number(reply);
    });
    rows.push(...read);
  }
  return rows;
}

/** A key table from its rows, with the flagged ones counted for the page's summary. */
export function keyTableOf(table: Omit<KeyTable, 'mismatches' | 'ttlWrong'>): KeyTable {
  return { ...table, mismatches: table.keys.filter((row) => row.mismatch).length, ttlWrong: table.keys.filter((row) => row.ttlWrong).length };
}

/** The census's tally of keys under QUEUELENS_PREFIX: the audit log, the throughput history, the trash. */
export const QUEUELENS_OWN_TALLY = 'QueueLens’s own keys';

/** What a key the census meets is to the layout: one of its kinds (the tally it counts in), one of its names with another type, or a stranger. */
export type KeyVerdict = { tally: string } | { wrongType: true } | null;

/** One pattern the census walks: every key under `prefix`, each judged by `judge` from its whole name and its type. */
export interface CensusScope {
  prefix: string;
  judge(key: string, type: KeyType): KeyVerdict;
}

/** A census cursor: which scope, and the SCAN cursor within it. The first step is asked with '0'. */
function parseCursor(cursor: string, scopes: number): { scope: number; scan: string } {
  if (cursor === '0') return { scope: 0, scan: '0' };
  const match = /^(\d{1,4})-(\d{1,20})$/.exec(cursor);
  const scope = Number(match?.[1]);
  if (!match || scope >= scopes || !isScanCursor(match[2]!)) throw new QueueError(`"${cursor.slice(0, 40)}" is not a census cursor.`, { invalidRequest: true });
  return { scope, scan: match[2]! };
}

/**
 * One census step: one bounded SCAN step (SCAN … MATCH {prefix}* COUNT 250,
 * about `scanKeys` keys, TABLE_CENSUS_SCAN_KEYS unless told) of one scope and a pipelined TYPE of
 * each key it returned, the keys counted by what they are. The caller sends
 * the returned cursor back until `done`; the scopes are walked in turn.
 */
export async function tableCensusStep(
  connection: RedisConnection,
  scopes: readonly CensusScope[],
  cursor: string,
  tallyOrder: readonly string[],
  scanKeys = TABLE_CENSUS_SCAN_KEYS,
  ownPrefix?: string,
): Promise<LayoutCensusStep> {
  const at = parseCursor(cursor, scopes.length);
  return connection.attempt(async () => {
    const scope = scopes[at.scope]!;
    const node = nodeServingPrefix(connection.redis, scope.prefix);
    const [{ cursor: next, found }, dbSize] = await Promise.all([scanStepBuffers(node, at.scan, patternUnder(scope.prefix), scanKeys), node.dbsize()]);
    const types = found.length > 0 ? await settlePipeline(found.reduce((pipeline, key) => pipeline.type(key), node.pipeline())) : [];
    const tallies: Record<string, number> = Object.fromEntries([...tallyOrder, ...(ownPrefix ? [QUEUELENS_OWN_TALLY] : [])].map((label) => [label, 0]));
    const step: LayoutCensusStep = {
      cursor: '0',
      done: false,
      keys: found.length,
      tallies,
      wrongType: [],
      strangerCount: 0,
      strangers: [],
      dbSize,
      walks: scopes.length,
    };
    found.forEach((bytes, index) => {
      const reply = types[index];
      const type = typeof reply === 'string' ? reply : 'none';
      // Deleted between SCAN and TYPE (a job finishing): nothing to count.
      if (type === 'none') return;
      const address = keyAddressOf(bytes);
      const named: NamedKey = { key: address.key, type, ...(address.raw !== null ? { raw: address.raw } : {}) };
      // QUEUELENS_PREFIX may lie under the driver's prefix (the e2e runs put it there): its keys are ours, not strangers.
      const verdict = ownPrefix && address.key.startsWith(ownPrefix) ? { tally: QUEUELENS_OWN_TALLY } : scope.judge(address.key, type);
      if (verdict === null) {
        step.strangerCount += 1;
        if (step.strangers.length < TABLE_CENSUS_NAMED_PER_STEP) step.strangers.push(named);
      } else if ('wrongType' in verdict) {
        if (step.wrongType.length < TABLE_CENSUS_NAMED_PER_STEP) step.wrongType.push(named);
      } else tallies[verdict.tally] = (tallies[verdict.tally] ?? 0) + 1;
    });
    const last = at.scope + 1 >= scopes.length;
    if (next !== '0') step.cursor = `${at.scope}-${next}`;
    else if (!last) step.cursor = `${at.scope + 1}-0`;
    step.done = next === '0' && last;
    return step;
  });
}

/** One page of a key under one of `prefixes` (the census's scopes); any other key is refused, saying which it may be under. */
export function keyContentsUnder(connection: RedisConnection, prefixes: readonly string[], key: string | Buffer, cursor: string): Promise<KeyContents> {
  return readKeyContentsWhere(
    connection,
    key,
    (name) => {
      const bytes = typeof name === 'string' ? Buffer.from(name, 'utf8') : name;
      if (bytes.length > KEY_NAME_LIMIT) return `A key name is at most ${KEY_NAME_LIMIT} bytes.`;
      if (prefixes.some((prefix) => isUnderPrefix(bytes, prefix))) return null;
      return `Only keys under ${prefixes.join(', ')} can be opened here; ${bytesToText(bytes)} is not one of them.`;
    },
    cursor,
  );
}
