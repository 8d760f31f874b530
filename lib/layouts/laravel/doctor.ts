import { DEFAULT_MARK_THRESHOLDS } from '../../dashboard/marks';
import { nodeServingPrefix } from '../../redis/client';
import type { RedisConnection } from '../../redis/connection';
import { QueueError } from '../../redis/errors';
import { settlePipeline } from '../../redis/pipeline';
import { patternUnder, scanStep, SCAN_COUNT } from '../../redis/scan-keys';
import type { Finding, Severity } from '../../shapes/doctor-kinds';
import { layoutDoctor, type LayoutDoctor } from '../layout-doctor';
import type { KeyType } from '../pages';
import { DISCOVERY_SCAN_LIMIT, QUEUE_KEY_SUFFIXES, queueNameOf } from '../list-queues';
import type { HorizonKeys } from './horizon';
import type { LaravelKeys } from './keys';
import { judgeLaravelKey } from './key-table';
import type { LaravelLineRepairs } from './repairs';
import { alignNotify, expireHorizonHash, readDoctorPage, type DoctorPageRow } from './scripts';

export type LaravelFindingKind =
  | 'wrong-type'
  | 'unpoppable-payload'
  | 'expired-reservation'
  | 'overdue-delayed'
  | 'notify-out-of-step'
  | 'queues-not-all-found'
  | 'horizon-hash-without-expiry';

/**
 * The repairs the doctor proposes, each one of the layout's scripts that
 * re-checks first: an expired reservation put back in line by its id
 * (lua/laravel/move-to-ready-3.lua, through the job's exact bytes), a
 * queue's due delayed jobs moved into line (lua/laravel/move-due-3.lua), a
 * notify list brought back to one token per ready job
 * (lua/laravel/align-notify-2.lua), a Horizon job hash without an expiry
 * given Horizon's longest default trim (lua/laravel/horizon-expire-1.lua).
 */
export type LaravelRepair =
  | { kind: 'release-expired'; queue: string; id: string }
  | { kind: 'move-due'; queue: string }
  | { kind: 'align-notify'; queue: string; direction: 'add' | 'trim' }
  | { kind: 'expire-horizon-hash'; key: string; status: string };

/** Finding's shape with Laravel's kinds and repairs; `jobId` stays unset (Laravel's ids are text): the subject names the id. */
export type LaravelFinding = Finding<LaravelFindingKind, LaravelRepair>;

export const LARAVEL_FINDING_KINDS: Record<LaravelFindingKind, { severity: Severity; title: string }> = {
  'wrong-type': { severity: 'critical', title: 'Keys of the wrong type' },
  'unpoppable-payload': { severity: 'critical', title: 'Payloads Laravel’s pop fails on' },
  'expired-reservation': { severity: 'warning', title: 'Reservations expired over a minute ago that no pop put back' },
  'overdue-delayed': { severity: 'warning', title: 'Delayed jobs due over a minute ago that no pop moved' },
  'notify-out-of-step': { severity: 'info', title: 'Notify lists out of step with their ready lists' },
  'queues-not-all-found': { severity: 'info', title: 'Queues the discovery SCAN did not reach' },
  'horizon-hash-without-expiry': { severity: 'warning', title: 'Horizon job records without an expiry' },
};

/** Horizon's longest default trim (config/horizon.php trim.failed, 10080 minutes): the expiry the repair gives a record that has none. */
export const HORIZON_LONGEST_TRIM_SECONDS = 10_080 * 60;

/**
 * How long past its second an expired reservation or a due delayed job may
 * stay before it proves that nobody pops its queue: the overview's "stuck"
 * mark, which also absorbs the workers' clocks running a little behind
 * Redis's (Laravel scores by the PHP host's time()).
 */
export const OVERDUE_GRACE_SECONDS = DEFAULT_MARK_THRESHOLDS.stuckSeconds as number;

/** Payloads per page script call, and the payload bytes after which a call stops (a payload can be megabytes). */
export const DOCTOR_PAGE = 100;
const PAGE_BYTE_BUDGET = 512 * 1024;
/** Tokens the notify repair pushes or drops per script call. */
const NOTIFY_REPAIR_LIMIT = 1_000;

const STRUCTURES = ['ready', 'delayed', 'reserved'] as const;
type Structure = (typeof STRUCTURES)[number];
type Phase = 'scan' | 'keys' | Structure | 'horizon' | 'done';

/** Where a check is between two steps; plain data, as every layout's doctor state. */
export interface LaravelDoctorState {
  phase: Phase;
  /** SCAN cursor, or the rank the walk of a structure is at */
  cursor: string;
  scanSteps: number;
  /** the queues to check, sorted (found by the scan, or named by the connection) */
  queues: string[];
  /** which of `queues` the phase is at */
  index: number;
  /** the Redis clock, in seconds, as the check of the current queue began */
  now: number;
  /** the current queue's structures that hold their own type (absent ones are not walked) */
  walked: Structure[];
  /** due delayed jobs of the current queue overdue by more than the grace, counted over its walk */
  overdueDelayed: number;
  examined: number;
  steps: number;
}

export function startLaravelDoctor(named: readonly string[] | null): LaravelDoctorState {
  const base = { cursor: '0', scanSteps: 0, index: 0, now: 0, walked: [], overdueDelayed: 0, examined: 0, steps: 0 };
  return named === null ? { ...base, phase: 'scan', queues: [] } : { ...base, phase: 'keys', queues: [...named].sort() };
}

const PHASE_LABELS: Record<Phase, string> = {
  scan: 'the queue names',
  keys: 'the keys of',
  ready: 'the ready list of',
  delayed: 'the delayed set of',
  reserved: 'the reserved set of',
  horizon: 'Horizon’s job records',
  done: 'done',
};

export function describeLaravelProgress(state: LaravelDoctorState): string {
  if (state.phase === 'done') return `Checked ${state.examined} keys and payloads of ${state.queues.length} queue${state.queues.length === 1 ? '' : 's'}`;
  const queue = state.phase === 'scan' || state.phase === 'horizon' ? '' : ` queue ${state.queues[state.index]} (${state.index + 1} of ${state.queues.length})`;
  return `Checking ${PHASE_LABELS[state.phase]}${queue} (${state.examined} keys and payloads so far)`;
}

interface StepContext {
  connection: RedisConnection;
  keys: LaravelKeys;
  /** Horizon's keys, where the connection names its prefix */
  horizon: HorizonKeys | null;
  state: LaravelDoctorState;
  findings: LaravelFinding[];
}

function finding(
  kind: LaravelFindingKind,
  key: string,
  inside: string | undefined,
  explanation: string,
  repairDescription: string,
  repair: LaravelRepair | null,
): LaravelFinding {
  const subject = inside === undefined ? key : `${key} ${inside}`;
  return { kind, severity: LARAVEL_FINDING_KINDS[kind].severity, key, subject, explanation, repairDescription, repair };
}

const TYPE_WORDS: Record<string, string> = { zset: 'sorted set' };
const typeWord = (type: string) => TYPE_WORDS[type] ?? type;

function wrongType(key: string, type: string, expected: string): LaravelFinding {
  return finding(
    'wrong-type',
    key,
    undefined,
    `${key} is a ${typeWord(type)}, but Laravel's RedisQueue keeps a ${typeWord(expected)} there. Every script of the queue that touches it (push, pop and its migrate, release) fails with WRONGTYPE, so the workers' pops of this queue throw and nothing on it runs.`,
    "No automatic repair: what the key holds is not the queue's, and deleting it could lose somebody's data. Inspect it on the keys page and rename or delete it by hand.",
    null,
  );
}

/** The type Laravel keeps at a key under `queues:` that SCAN found: a sorted set for `:delayed` and `:reserved`, else a list. */
function expectedTypeOf(key: string): string {
  return key.endsWith(QUEUE_KEY_SUFFIXES.delayed) || key.endsWith(QUEUE_KEY_SUFFIXES.reserved) ? 'zset' : 'list';
}

/** One SCAN step of `{prefix}queues:*`: the queues its keys name, and the keys of a type no queue keeps there. */
async function scanQueues({ connection, keys, state, findings }: StepContext): Promise<void> {
  const node = nodeServingPrefix(connection.redis, keys.prefix);
  const { cursor, found } = await scanStep(node, state.cursor, patternUnder(keys.queuesPrefix), SCAN_COUNT);
  const types = found.length > 0 ? await settlePipeline(found.reduce((pipeline, key) => pipeline.type(key), node.pipeline())) : [];
  const names = new Set(state.queues);
  found.forEach((key, i) => {
    const type = String(types[i]);
    // Deleted since SCAN found it: Redis drops a queue's keys once they are empty.
    if (type === 'none') return;
    const verdict = judgeLaravelKey(keys, key, type as KeyType);
    if (verdict !== null && 'wrongType' in verdict) findings.push(wrongType(key, type, expectedTypeOf(key)));
    const name = queueNameOf(key.slice(keys.queuesPrefix.length), type);
    if (name !== null && name !== '') names.add(name);
  });
  state.queues = [...names].sort();
  state.examined += found.length;
  state.scanSteps += 1;
  state.cursor = cursor;
  if (cursor !== '0' && state.scanSteps >= DISCOVERY_SCAN_LIMIT) {
    findings.push(
      finding(
        'queues-not-all-found',
        `${keys.queuesPrefix}*`,
        undefined,
        `The SCAN of ${keys.queuesPrefix}* stopped after ${DISCOVERY_SCAN_LIMIT} steps of ${SCAN_COUNT} keys, before the end of the database: only the ${state.queues.length} queues it found were checked.`,
        'Nothing to repair: name the queues in the connection (QUEUE_NAMES) so that every one is checked.',
        null,
      ),
    );
  }
  if (cursor === '0' || state.scanSteps >= DISCOVERY_SCAN_LIMIT) enterPhase(state, 'keys');
}

function enterPhase(state: LaravelDoctorState, phase: Phase): void {
  state.phase = phase;
  state.cursor = '0';
}

function structureKey(keys: LaravelKeys, structure: Structure, queue: string): string {
  return structure === 'ready' ? keys.ready(queue) : structure === 'delayed' ? keys.delayed(queue) : keys.reserved(queue);
}

/** The queue's four keys' types, its two lists' lengths and the Redis clock, in one transaction (one moment, as Laravel's scripts change them). */
async function checkQueueKeys({ connection, keys, state, findings }: StepContext): Promise<void> {
  const queue = state.queues[state.index];
  if (queue === undefined) {
    state.scanSteps = 0;
    return enterPhase(state, 'horizon');
  }
  const owned = [
    { key: keys.ready(queue), type: 'list' },
    { key: keys.delayed(queue), type: 'zset' },
    { key: keys.reserved(queue), type: 'zset' },
    { key: keys.notify(queue), type: 'list' },
  ];
  const replies = await settlePipeline(
    owned
      .reduce((multi, { key }) => multi.type(key), connection.redis.multi().time())
      .llen(keys.ready(queue))
      .llen(keys.notify(queue)),
  );
  state.now = Number((replies[0] as [string, string])[0]);
  const types = owned.map((_, i) => String(replies[i + 1]));
  owned.forEach(({ key, type }, i) => {
    if (types[i] !== 'none' && types[i] !== type) findings.push(wrongType(key, types[i]!, type));
  });
  state.walked = STRUCTURES.filter((_, i) => types[i] === owned[i]!.type);
  state.overdueDelayed = 0;
  state.examined += owned.length;
  const [ready, tokens] = [replies[5], replies[6]];
  if (typeof ready === 'number' && typeof tokens === 'number' && ready !== tokens) findings.push(notifyFinding(keys, queue, ready, tokens));
  enterPhase(state, 'ready');
}

function notifyFinding(keys: LaravelKeys, queue: string, ready: number, tokens: number): LaravelFinding {
  const [readyKey, notifyKey] = [keys.ready(queue), keys.notify(queue)];
  const holds = `${notifyKey} holds ${tokens} token${tokens === 1 ? '' : 's'} for the ${ready} job${ready === 1 ? '' : 's'} in ${readyKey}.`;
  if (tokens > ready) {
    return finding(
      'notify-out-of-step',
      notifyKey,
      undefined,
      `${holds} Laravel pushes a token per job put in line and its pop takes one per job; a job taken out of the line otherwise (a remove) leaves its token behind. A surplus token makes a blocking pop (block_for set) of the empty queue return at once: its BLPOP takes the token, the second pop finds no job, and the worker sleeps its --sleep seconds before it polls again instead of waking when a job is pushed. Each such empty wake uses a token up, so a surplus drains itself; without block_for nothing but the pop's LPOP reads them and they only take memory.`,
      `Drop ${tokens - ready} token${tokens - ready === 1 ? '' : 's'} from the head of ${notifyKey} (only while it still holds more tokens than ${readyKey} holds jobs). Safe while workers run: a surplus means no worker is blocked on the list.`,
      { kind: 'align-notify', queue, direction: 'trim' },
    );
  }
  return finding(
    'notify-out-of-step',
    notifyKey,
    undefined,
    `${holds} Every pop takes the head of ${readyKey} whatever the tokens, and a worker waits on the tokens (BLPOP, block_for set) only after its pop found the ready list empty, so a shortfall keeps no polling worker from these jobs; Laravel leaves small ones itself, when a woken worker's second pop takes another job's token. It harms only a worker that was already blocked when jobs were put in line without a token (by hand, or by a tool other than Laravel's push): that worker sleeps until block_for runs out (for good with block_for 0) or the next token wakes it${tokens === 0 ? '; with no token left, one may be blocked now' : ''}.`,
    `Push ${ready - tokens} token${ready - tokens === 1 ? '' : 's'} onto ${notifyKey} (only while it still holds fewer tokens than ${readyKey} holds jobs): a blocked worker wakes and pops. Safe while workers run: a token carries no job, and one too many wakes a blocking pop once for nothing.`,
    { kind: 'align-notify', queue, direction: 'add' },
  );
}

/** One page of a structure of the current queue, each payload tried as Laravel's pop would take it. */
async function walkStructure(context: StepContext, structure: Structure): Promise<void> {
  const { connection, keys, state, findings } = context;
  const queue = state.queues[state.index]!;
  const next = () => (structure === 'reserved' ? nextQueue(state) : enterPhase(state, structure === 'ready' ? 'delayed' : 'reserved'));
  if (!state.walked.includes(structure)) return next();
  const key = structureKey(keys, structure, queue);
  const offset = Number(state.cursor);
  let page;
  try {
    page = await readDoctorPage.run(connection.redis, {
      structure: key,
      kind: structure === 'ready' ? 'list' : 'zset',
      offset,
      count: DOCTOR_PAGE,
      byteBudget: PAGE_BYTE_BUDGET,
      overdueBefore: structure === 'ready' ? '' : state.now - OVERDUE_GRACE_SECONDS,
      listOverdue: structure === 'reserved' ? '1' : '0',
    });
  } catch (error) {
    // Its type changed since the keys step: report it as it is now.
    if (!(error instanceof QueueError)) throw error;
    findings.push(wrongType(key, 'key of another type', structure === 'ready' ? 'list' : 'zset'));
    return next();
  }
  for (const row of page.rows) findings.push(row.problem === '' ? expiredReservation(keys, queue, state.now, row) : unpoppable(keys, structure, queue, row));
  state.examined += page.examined;
  if (structure === 'delayed') state.overdueDelayed += page.overdue;
  if (!page.ended) {
    state.cursor = String(offset + page.examined);
    return;
  }
  if (structure === 'delayed' && state.overdueDelayed > 0) findings.push(overdueDelayed(keys, queue, state.overdueDelayed));
  next();
}

function nextQueue(state: LaravelDoctorState): void {
  state.index += 1;
  enterPhase(state, 'keys');
}

/** How a payload is named inside its key: its id (as the job page opens it), else its SHA-1. */
function nameOf(row: DoctorPageRow): string {
  return row.id !== '' ? row.id : `sha1:${row.digest}`;
}

const WHEN_POPPED: Record<Structure, string> = {
  ready: 'The next pop of the queue',
  delayed: 'When it comes due, a pop’s migrate moves it into line; the pop after that',
  reserved: 'When it expires, a pop’s migrate puts it back in line; the pop after that',
};

function unpoppable(keys: LaravelKeys, structure: Structure, queue: string, row: DoctorPageRow): LaravelFinding {
  const key = structureKey(keys, structure, queue);
  const job = row.id !== '' ? `Job ${row.id}` : 'A payload with no id';
  return finding(
    'unpoppable-payload',
    key,
    nameOf(row),
    `${job} in ${key} is not what Laravel's pop can take: its script fails on it with "${row.problem}" (LuaScripts::pop decodes the payload with cjson and adds one to its attempts). ${WHEN_POPPED[structure]} LPOPs it and then fails: Redis does not undo a script's writes before its error, so the payload is gone for good (not reserved, not in failed_jobs) and its notify token stays. With phpredis (Laravel's default client) the failed script reads as no job: the pop returns nothing, nothing is logged, and the worker sleeps its --sleep seconds, though jobs may wait behind it. With Predis the pop throws: Worker::getNextJob reports the exception, sleeps a second and then its --sleep (the queues after this one in its --queue list are not popped that round).`,
    `No automatic repair: the doctor keeps no copy, so deleting it would lose its bytes as the pop will. ${
      row.id !== ''
        ? `Open job ${row.id} of queue ${queue} and Remove it, which keeps its bytes in QueueLens's trash`
        : 'It has no id to open it by: copy it out and LREM or ZREM it by hand'
    }, before a worker pops it.`,
    null,
  );
}

function expiredReservation(keys: LaravelKeys, queue: string, now: number, row: DoctorPageRow): LaravelFinding {
  const key = keys.reserved(queue);
  const expiredAt = Number(row.score);
  const id = row.id;
  return finding(
    'expired-reservation',
    key,
    nameOf(row),
    `${id !== '' ? `Job ${id}'s` : 'A'} reservation in ${key} ran out ${now - expiredAt} s ago by the Redis clock (at ${new Date(expiredAt * 1000).toISOString()}) and is still there. Every pop of queue ${queue} first puts expired reservations back in line (RedisQueue::migrate), so no worker has popped this queue since, and the job will not run again until one does. Unless the connection sets retry_after null: then Laravel never puts a reservation back, scores it by the second it was taken, and its worker may still be running it.`,
    id !== ''
      ? `Put job ${id} back at the tail of ${keys.ready(queue)} with a notify token, as the pop's migrateExpiredJobs does, its attempts kept (only if those exact bytes are still reserved and expired). Not if the connection sets retry_after null and the job may still be running: it would run twice.`
      : 'No automatic repair: the payload has no id to find it by again. Release it by hand.',
    id !== '' ? { kind: 'release-expired', queue, id } : null,
  );
}

function overdueDelayed(keys: LaravelKeys, queue: string, count: number): LaravelFinding {
  const key = keys.delayed(queue);
  return finding(
    'overdue-delayed',
    key,
    undefined,
    `${count} delayed job${count === 1 ? ' was' : 's were'} due in ${key} more than ${OVERDUE_GRACE_SECONDS} s ago by the Redis clock and ${count === 1 ? 'is' : 'are'} still there. Every pop of queue ${queue} first moves due delayed jobs into line (RedisQueue::migrate), so no worker has popped this queue since (or the workers' clocks run that far behind Redis's).`,
    `Move the due jobs to the tail of ${keys.ready(queue)} with a notify token each, earliest due first, as the pop's migrate does (the delayed page's Move due jobs now).`,
    { kind: 'move-due', queue },
  );
}

/** The job a hash under Horizon's prefix is the record of (its id has no colon), or null for Horizon's other hashes (master:…, supervisor:…, job:…, queue:… metrics). */
function horizonJobId(horizon: HorizonKeys, key: string): string | null {
  const id = key.slice(horizon.prefix.length);
  return id === '' || id.includes(':') ? null : id;
}

/**
 * One SCAN step of Horizon's hashes, then each job record's expiry and
 * status in one pipeline: a record with no expiry never goes (Horizon's
 * reserved() and released() write it without one; laravel/horizon #124).
 */
async function checkHorizonRecords({ connection, horizon, state, findings }: StepContext): Promise<void> {
  if (horizon === null) return enterPhase(state, 'done');
  const node = nodeServingPrefix(connection.redis, horizon.prefix);
  const [cursor, found] = await node.scan(state.cursor, 'MATCH', patternUnder(horizon.prefix), 'COUNT', SCAN_COUNT, 'TYPE', 'hash');
  const jobs = found.flatMap((key) => (horizonJobId(horizon, key) === null ? [] : [key]));
  const replies = jobs.length > 0 ? await settlePipeline(jobs.reduce((pipeline, key) => pipeline.ttl(key).hget(key, 'status'), node.pipeline())) : [];
  jobs.forEach((key, i) => {
    const [ttl, status] = [replies[i * 2], replies[i * 2 + 1]];
    if (ttl !== -1 || typeof status !== 'string') return;
    findings.push(
      finding(
        'horizon-hash-without-expiry',
        key,
        `(status ${status})`,
        `Horizon's record of job ${horizonJobId(horizon, key)} has no expiry, so it stays in Redis for good: Horizon's reserved() and released() write it without one, and when its pending record had expired before (a backlog older than trim.pending), nothing gives it one again (laravel/horizon #124).`,
        `Give it Horizon's longest default trim, ${HORIZON_LONGEST_TRIM_SECONDS / 86_400} days (lua/laravel/horizon-expire-1.lua; only while it still has no expiry and the same status).`,
        { kind: 'expire-horizon-hash', key, status },
      ),
    );
  });
  state.examined += found.length;
  state.scanSteps += 1;
  state.cursor = cursor;
  if (cursor === '0' || state.scanSteps >= DISCOVERY_SCAN_LIMIT) enterPhase(state, 'done');
}

const PHASE_CHECKS: Record<Phase, (context: StepContext) => Promise<void>> = {
  scan: scanQueues,
  keys: checkQueueKeys,
  ready: (context) => walkStructure(context, 'ready'),
  delayed: (context) => walkStructure(context, 'delayed'),
  reserved: (context) => walkStructure(context, 'reserved'),
  horizon: checkHorizonRecords,
  done: async () => {},
};

/**
 * One bounded step of the Laravel check: one SCAN step of `{prefix}queues:*`
 * (with the found keys' types), one transaction of a queue's key types and
 * list lengths, or one page script over at most DOCTOR_PAGE payloads of one
 * structure. Reads only; repeat until `done`.
 */
export function laravelDoctorStep(
  connection: RedisConnection,
  keys: LaravelKeys,
  horizon: HorizonKeys | null,
  previous: LaravelDoctorState,
): Promise<{ state: LaravelDoctorState; findings: LaravelFinding[]; done: boolean }> {
  return connection.attempt(async () => {
    // A state of its own: the caller may keep the previous one (a page retrying a step sends it again).
    const state: LaravelDoctorState = { ...previous, queues: [...previous.queues], walked: [...previous.walked], steps: previous.steps + 1 };
    const findings: LaravelFinding[] = [];
    await PHASE_CHECKS[state.phase]({ connection, keys, horizon, state, findings });
    return { state, findings, done: state.phase === 'done' };
  });
}

/** Runs a bounded repair script until it has nothing left to do; true when any call changed something. */
async function untilDone(call: () => Promise<{ changed: number; left: number }>): Promise<boolean> {
  let changedAny = false;
  for (;;) {
    const { changed, left } = await call();
    changedAny ||= changed > 0;
    if (changed === 0 || left === 0) return changedAny;
  }
}

/** Applies Laravel repairs in turn, each through its own script that re-checks first: true where it changed something. */
export async function repairLaravel(
  connection: RedisConnection,
  keys: LaravelKeys,
  lineRepairs: LaravelLineRepairs,
  repairs: readonly LaravelRepair[],
): Promise<boolean[]> {
  const outcomes: boolean[] = [];
  for (const repair of repairs) {
    switch (repair.kind) {
      case 'release-expired':
        outcomes.push(await lineRepairs.releaseExpired(repair.queue, repair.id));
        break;
      case 'move-due':
        outcomes.push(
          await untilDone(async () => {
            const { moved, stillDue } = await lineRepairs.moveDueJobs(repair.queue);
            return { changed: moved, left: stillDue };
          }),
        );
        break;
      case 'expire-horizon-hash':
        outcomes.push(
          await connection.attempt(() =>
            expireHorizonHash.run(connection.redis, { job: repair.key, status: repair.status, seconds: HORIZON_LONGEST_TRIM_SECONDS }),
          ),
        );
        break;
      case 'align-notify':
        outcomes.push(
          await untilDone(async () => {
            const { changed, stillApart } = await connection.attempt(() =>
              alignNotify.run(connection.redis, {
                ready: keys.ready(repair.queue),
                notify: keys.notify(repair.queue),
                direction: repair.direction,
                limit: NOTIFY_REPAIR_LIMIT,
              }),
            );
            return { changed, left: stillApart };
          }),
        );
        break;
    }
  }
  return outcomes;
}

/** The check and its repairs for Laravel queues under `keys.prefix` (the named queues, or those a bounded SCAN finds), and Horizon's job records where `horizon` is given. */
export function laravelDoctor(
  connection: RedisConnection,
  keys: LaravelKeys,
  horizon: HorizonKeys | null,
  named: readonly string[] | null,
  lineRepairs: LaravelLineRepairs,
): LayoutDoctor {
  return layoutDoctor({
    kinds: LARAVEL_FINDING_KINDS,
    start: () => startLaravelDoctor(named),
    step: async (state: LaravelDoctorState) => {
      const step = await laravelDoctorStep(connection, keys, horizon, state);
      return { ...step, progress: describeLaravelProgress(step.state) };
    },
    apply: (repairs) => repairLaravel(connection, keys, lineRepairs, repairs),
  });
}
