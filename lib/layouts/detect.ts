import { isCluster, type QueueClient } from '../redis/client';
import { QueueError } from '../redis/errors';
import { scanStep } from '../redis/scan-keys';
import { candidatesOf, emptyTally, mergeTallies, readDetection, tallyKey, type Detection, type DetectTally, type KeyType } from '../shapes/detect-tally';

/** Keys one detect step looks at: a few SCAN COUNT 250 commands, then one pipeline of TYPE for the keys whose names fit a layout. */
export const DETECT_STEP_KEYS = 1_000;

/** A SCAN MATCH pattern: `*` walks every key; a narrower one (`myapp:*`) only those, which is how tests and shared servers keep to their own keys. */
export const DETECT_EVERY_KEY = '*';

/** Where a walk looks: a SCAN MATCH pattern, and the prefix of QueueLens's own keys (QUEUELENS_PREFIX), counted apart. */
export interface DetectScope {
  match: string;
  ownPrefix: string;
}

/**
 * One step of a detection walk from `cursor`: about `keys` keys of the
 * database `scope.match` selects, each whose name fits a layout checked by
 * TYPE (pipelined, one command per key), and a yii2 messages hash sized by
 * HLEN. Returns the cursor to go on from ('0': the walk is complete) and the
 * step's tally, for mergeTallies. Never KEYS, and nothing is written.
 */
export async function detectStep(
  client: QueueClient,
  cursor: string,
  scope: DetectScope,
  keys = DETECT_STEP_KEYS,
): Promise<{ cursor: string; tally: DetectTally }> {
  // SCAN walks one server; a cluster's keys are spread over its masters.
  if (isCluster(client))
    throw new QueueError(
      'Detection walks one Redis server, and this is a cluster: run it against each master’s address (queuelens detect --redis-url redis://MASTER:PORT).',
    );
  const { cursor: next, found } = await scanStep(client, cursor, scope.match, keys);
  const own = found.filter((key) => key.startsWith(scope.ownPrefix));
  const tally = { ...emptyTally(), scanned: found.length, own: own.length };
  const named = found.filter((key) => !key.startsWith(scope.ownPrefix)).map((key) => ({ key, candidates: candidatesOf(key) }));
  const typed = named.filter(({ candidates }) => candidates.length > 0);
  const typing = client.pipeline();
  for (const { key } of typed) typing.type(key);
  const types = typed.length > 0 ? ((await typing.exec()) ?? []).map(([error, type]) => (error ? 'none' : String(type))) : [];
  const fitting = typed.map(({ key, candidates }, index) => ({
    key,
    candidates: candidates.filter((candidate) => candidate.type === (types[index] as KeyType)),
  }));
  const messages = fitting.filter(({ candidates }) => candidates.some((candidate) => candidate.family === 'yii2' && candidate.role === 'messages'));
  const sizing = client.pipeline();
  for (const { key } of messages) sizing.hlen(key);
  const sizes = messages.length > 0 ? ((await sizing.exec()) ?? []).map(([error, size]) => (error ? 0 : Number(size))) : [];
  const sizeOf = new Map(messages.map(({ key }, index) => [key, sizes[index] ?? 0]));
  for (const { key, candidates } of named) if (candidates.length === 0) tallyKey(tally, key, []);
  for (const { key, candidates } of fitting) tallyKey(tally, key, candidates, sizeOf.get(key) ?? 0);
  return { cursor: next, tally };
}

/**
 * A detection walk, step by step; `onStep` hears the progress after each.
 * With `maxKeys` it stops once it has looked at that many keys (`whole` then
 * says whether it reached the end of the database).
 */
export async function detectLayouts(
  client: QueueClient,
  scope: DetectScope,
  onStep?: (progress: { scanned: number; found: number }) => void,
  maxKeys = Number.POSITIVE_INFINITY,
): Promise<Detection & { whole: boolean }> {
  let tally = emptyTally();
  let cursor = '0';
  do {
    const step = await detectStep(client, cursor, scope);
    tally = mergeTallies(tally, step.tally);
    cursor = step.cursor;
    onStep?.({ scanned: tally.scanned, found: readDetection(tally).found.length });
  } while (cursor !== '0' && tally.scanned < maxKeys);
  return { ...readDetection(tally), whole: cursor === '0' };
}
