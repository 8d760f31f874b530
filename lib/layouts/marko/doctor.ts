import type { Finding, Severity } from '../../shapes/doctor-kinds';
import { nodeServingPrefix } from '../../redis/client';
import { QueueError } from '../../redis/errors';
import { settlePipeline } from '../../redis/pipeline';
import type { RedisConnection } from '../../redis/connection';
import { patternUnder, scanStep, SCAN_COUNT } from '../../redis/scan-keys';
import { layoutDoctor, type LayoutDoctor } from '../layout-doctor';
import type { MarkoKeys } from './keys';
import { findQueues } from '../list-queues';
import { runRepairScripts } from '../../redis/repair-scripts';
import { dropIndexEntry, readDoctorPage, readFailedCheck, type PlaceRow } from './scripts';

export type MarkoFindingKind =
  | 'wrong-type'
  | 'id-in-two-places'
  | 'orphan-job'
  | 'unreadable-failed-record'
  | 'record-without-index'
  | 'dangling-id'
  | 'index-without-record'
  | 'orphan-search-skipped';

/** The one repair the layout note calls safe while marko's workers run (see lua/marko/doctor-drop-index-entry-2.lua). */
export type MarkoRepair = { kind: 'drop-index-entry'; id: string };

/**
 * StaticPHP's Finding shape with marko's kinds and repairs. `jobId` stays
 * unset: marko's ids are text its application makes, not Finding's numbers;
 * each finding's subject names the id.
 */
export type MarkoFinding = Finding<MarkoFindingKind, MarkoRepair>;

export const MARKO_FINDING_KINDS: Record<MarkoFindingKind, { severity: Severity; title: string }> = {
  'wrong-type': { severity: 'critical', title: 'Keys of the wrong type' },
  'id-in-two-places': { severity: 'warning', title: 'Jobs in two of ready, delayed and reserved' },
  'orphan-job': { severity: 'warning', title: 'Job hashes in no list or set' },
  'unreadable-failed-record': { severity: 'warning', title: 'Failed records that are not JSON' },
  'record-without-index': { severity: 'warning', title: 'Failed records the index does not list' },
  'dangling-id': { severity: 'info', title: 'Ids whose job hash is gone' },
  'index-without-record': { severity: 'info', title: 'Failed index entries with no record' },
  'orphan-search-skipped': { severity: 'info', title: 'Job hashes not looked for in a long ready list' },
};

type Phase = 'queues' | 'ready' | 'delayed' | 'reserved' | 'jobs' | 'failed-index' | 'failed-records' | 'done';
const STRUCTURES = ['ready', 'delayed', 'reserved'] as const;

/** Where a check is between two steps; plain data, as StaticPHP's DoctorState. */
export interface MarkoDoctorState {
  phase: Phase;
  /** range offset, SCAN or HSCAN cursor, depending on the phase */
  cursor: string;
  /** which queue of `queues` the phase is at */
  index: number;
  queues: string[];
  /**
   * The ids the ready walk saw, by queue, READY_IDS_KEPT together at most: a
   * job hash is looked for in them before its ready list is searched, since
   * LPOS cannot search a long list quickly.
   */
  seenReady: Record<string, string[]>;
  /** queues whose ready list had more ids than were kept */
  readyNotKept: string[];
  /** job hashes whose place could not be checked (their queue's ready list is long and its ids were not all kept), by queue */
  unsearched: Record<string, number>;
  examined: number;
  steps: number;
}

/** Ids per script call of a structure walk: a few O(1) or O(log n) commands each. */
const PAGE = 200;
/** Job hash ids per script call: each may cost two LPOS of LIST_SEARCH_LIMIT entries (about 0.3 ms), so 10 keep a call near 3 ms. */
const JOB_PAGE = 10;
/** Failed records per check call: each is JSON-decoded inside Redis, about 0.2 ms for a record of 20 KB. */
const FAILED_PAGE = 25;
/** Ready-list entries searched for a job hash's id from each end; the middle of a longer list is not searched. */
export const LIST_SEARCH_LIMIT = 1_000;
/** Ready ids the doctor keeps from its walk of the ready lists (a few MB). */
export const READY_IDS_KEPT = 200_000;

// Sets built once per kept array, however many steps ask for them.
const seenSets = new WeakMap<string[], Set<string>>();
function seenSet(ids: string[]): Set<string> {
  let set = seenSets.get(ids);
  if (!set) seenSets.set(ids, (set = new Set(ids)));
  return set;
}
/** Job hash keys per SCAN step of the doctor. */
const JOB_SCAN_KEYS = 4 * SCAN_COUNT;

const PHASE_LABELS: Record<Phase, string> = {
  queues: 'the queue names',
  ready: 'the ready lists',
  delayed: 'the delayed sets',
  reserved: 'the reserved sets',
  jobs: 'the job hashes',
  'failed-index': 'the failed index',
  'failed-records': 'the failed records',
  done: 'done',
};

export function describeMarkoProgress(state: MarkoDoctorState): string {
  return state.phase === 'done'
    ? `Checked ${state.examined} keys and entries`
    : `Checking ${PHASE_LABELS[state.phase]} (${state.examined} keys and entries so far)`;
}

function finding(
  kind: MarkoFindingKind,
  key: string,
  inside: string | undefined,
  explanation: string,
  repairDescription: string,
  repair: MarkoRepair | null,
): MarkoFinding {
  return {
    kind,
    severity: MARKO_FINDING_KINDS[kind].severity,
    key,
    subject: inside === undefined ? key : `${key} ${inside}`,
    explanation,
    repairDescription,
    repair,
  };
}

function wrongType(key: string, expected: string, message: string): MarkoFinding {
  return finding(
    'wrong-type',
    key,
    undefined,
    `${key} is not a ${expected}, which marko's layout keeps there (${message}). The driver's scripts fail on it.`,
    "No automatic repair: what the key holds is not the queue's. Inspect it and rename or delete it by hand.",
    null,
  );
}

const NOT_REPAIRED = "No automatic repair: the layout note does not call this change safe while marko's workers run";

function placesOf(row: PlaceRow): string[] {
  return STRUCTURES.filter((structure) => row[structure] === 1);
}

/** What one step of the marko check works with; `names` are the queues given, or null to find them. */
interface MarkoStep {
  queue: RedisConnection;
  keys: MarkoKeys;
  names: readonly string[] | null;
  state: MarkoDoctorState;
  findings: MarkoFinding[];
}

type Structure = (typeof STRUCTURES)[number];

const MARKO_PHASE_CHECKS: Record<Phase, (step: MarkoStep) => Promise<void>> = {
  queues: readQueueNames,
  ready: (step) => walkStructure(step, 'ready'),
  delayed: (step) => walkStructure(step, 'delayed'),
  reserved: (step) => walkStructure(step, 'reserved'),
  jobs: checkJobHashes,
  'failed-index': (step) => checkFailedPage(step, 'index'),
  'failed-records': (step) => checkFailedPage(step, 'records'),
  done: async () => {},
};

/**
 * One bounded step of the marko check: a handful of script calls over at
 * most PAGE ids each, or one SCAN step. Reads only; repeat until `done`.
 */
export function markoDoctorStep(
  queue: RedisConnection,
  keys: MarkoKeys,
  names: readonly string[] | null,
  previous: MarkoDoctorState,
): Promise<{ state: MarkoDoctorState; findings: MarkoFinding[]; done: boolean }> {
  return queue.attempt(async () => {
    const state: MarkoDoctorState = { ...previous, seenReady: { ...previous.seenReady }, unsearched: { ...previous.unsearched }, steps: previous.steps + 1 };
    const findings: MarkoFinding[] = [];
    await MARKO_PHASE_CHECKS[state.phase]({ queue, keys, names, state, findings });
    return { state, findings, done: state.phase === 'done' };
  });
}

function enterPhase(state: MarkoDoctorState, phase: Phase): void {
  state.phase = phase;
  state.cursor = '0';
  state.index = 0;
}

function structureKey(keys: MarkoKeys, structure: Structure, name: string): string {
  return structure === 'ready' ? keys.ready(name) : structure === 'delayed' ? keys.delayed(name) : keys.reserved(name);
}

/** One page of a queue's places (null, with a wrong-type finding, when the script refuses one of its keys). */
async function readPlaces({ queue, keys, findings }: MarkoStep, name: string, source: string, offset: number, ids: string[] = []): Promise<PlaceRow[] | null> {
  try {
    return await readDoctorPage.run(queue.redis, {
      ready: keys.ready(name),
      delayed: keys.delayed(name),
      reserved: keys.reserved(name),
      prefix: keys.prefix,
      source,
      offset,
      count: PAGE,
      searchLimit: LIST_SEARCH_LIMIT,
      ids,
    });
  } catch (error) {
    if (!(error instanceof QueueError)) throw error;
    findings.push(wrongType(keys.ready(name), 'list (or sorted set, for :delayed and :reserved)', error.message));
    return null;
  }
}

async function readQueueNames({ queue, keys, names, state }: MarkoStep): Promise<void> {
  state.queues = names === null ? (await findQueues(queue.redis, keys)).names : [...names];
  state.examined += state.queues.length;
  enterPhase(state, 'ready');
}

/** One page of the ready list, delayed set or reserved set of the queue the state is at. */
async function walkStructure(step: MarkoStep, structure: Structure): Promise<void> {
  const { state } = step;
  const name = state.queues[state.index];
  if (name === undefined) {
    enterPhase(state, structure === 'ready' ? 'delayed' : structure === 'delayed' ? 'reserved' : 'jobs');
    return;
  }
  const offset = Number(state.cursor);
  const rows = await readPlaces(step, name, structure, offset);
  if (structure === 'ready')
    keepReadyIds(
      state,
      name,
      (rows ?? []).map((row) => row.id),
    );
  for (const row of rows ?? []) checkPlaceRow(step, structure, name, row);
  state.examined += rows?.length ?? 0;
  if (rows === null || rows.length < PAGE) {
    state.index += 1;
    state.cursor = '0';
  } else {
    state.cursor = String(offset + rows.length);
  }
}

/** Reports an id whose job hash is gone or is no hash, and a job in two structures at once. */
function checkPlaceRow({ keys, findings }: MarkoStep, structure: Structure, name: string, row: PlaceRow): void {
  const key = structureKey(keys, structure, name);
  if (row.type === 'none') {
    findings.push(
      finding(
        'dangling-id',
        key,
        row.id,
        `Job ${row.id} is in ${key}, but ${keys.job(row.id)} is gone. How marko's pop treats an id with no hash is not documented.`,
        `${NOT_REPAIRED} (removing the id is part of deleting a job, which marko's own delete() does better). Check it with marko first.`,
        null,
      ),
    );
  } else if (row.type !== 'hash') {
    findings.push(wrongType(keys.job(row.id), 'hash', `it is a ${row.type}`));
  }
  // The ready walk reports ready+delayed and ready+reserved, the delayed walk delayed+reserved: each pair once.
  const places = placesOf(row);
  const reported = structure === 'ready' ? places.length > 1 : structure === 'delayed' && row.reserved === 1;
  if (reported) {
    findings.push(
      finding(
        'id-in-two-places',
        keys.job(row.id),
        undefined,
        `Job ${row.id} of queue ${name} is ${places.join(' and ')} at once. Each pop hands out a ready id, so it may be run while it is still reserved, or twice.`,
        `${NOT_REPAIRED}: which of its places is right cannot be known from Redis. Let its worker finish, then delete the job with marko or remove the stray id by hand.`,
        null,
      ),
    );
  }
}

/** One SCAN step of the job hashes, each looked for in its queue's structures. */
async function checkJobHashes(step: MarkoStep): Promise<void> {
  const { queue, keys, state } = step;
  const { cursor, found } = await scanStep(nodeServingPrefix(queue.redis, keys.prefix), state.cursor, patternUnder(keys.jobsPrefix), JOB_SCAN_KEYS);
  const byQueue = await groupJobsByQueue(step, found);
  for (const [name, ids] of byQueue) await findOrphans(step, name, ids);
  state.examined += found.length;
  state.cursor = cursor;
  if (cursor === '0') {
    reportSkippedSearches(step);
    enterPhase(state, 'failed-index');
  }
}

/** The ids of the job hashes among `found`, by their queue field; keys of another type and hashes without a queue are reported. */
async function groupJobsByQueue({ queue, keys, findings }: MarkoStep, found: string[]): Promise<Map<string, string[]>> {
  // Type and queue field in one transaction: a job deleted after SCAN found it is gone, not a hash without a queue.
  const replies = found.length > 0 ? await settlePipeline(found.reduce((m, key) => m.type(key).hget(key, 'queue'), queue.redis.multi())) : [];
  const byQueue = new Map<string, string[]>();
  found.forEach((key, i) => {
    const id = key.slice(keys.jobsPrefix.length);
    const [type, reply] = [String(replies[2 * i]), replies[2 * i + 1]];
    if (type === 'none') return;
    if (type !== 'hash') return findings.push(wrongType(key, 'hash', `it is a ${type}`));
    if (typeof reply !== 'string' || reply === '') {
      return findings.push(
        finding(
          'orphan-job',
          key,
          undefined,
          `${key} has no queue field, so QueueLens cannot tell which queue's lists should hold it.`,
          `${NOT_REPAIRED}. Read it on its job page; delete it with marko if it is not needed.`,
          null,
        ),
      );
    }
    byQueue.set(reply, [...(byQueue.get(reply) ?? []), id]);
  });
  return byQueue;
}

/** Reports the jobs of queue `name` that are in none of its structures, JOB_PAGE ids per script call. */
async function findOrphans(step: MarkoStep, name: string, ids: string[]): Promise<void> {
  const { keys, state, findings } = step;
  // A job the ready walk saw is no orphan; only the others are looked for.
  const seen = seenSet(state.seenReady[name] ?? []);
  const unseen = ids.filter((id) => !seen.has(id));
  const allKept = !state.readyNotKept.includes(name);
  for (let start = 0; start < unseen.length; start += JOB_PAGE) {
    for (const row of (await readPlaces(step, name, 'jobs', 0, unseen.slice(start, start + JOB_PAGE))) ?? []) {
      if (row.type !== 'hash' || placesOf(row).length > 0) continue;
      // Not seen by the walk nor at either end now: only a job pushed since, and already past LIST_SEARCH_LIMIT newer ones, would be missed.
      if (row.ready === -1 && !allKept) {
        state.unsearched[name] = (state.unsearched[name] ?? 0) + 1;
        continue;
      }
      findings.push(
        finding(
          'orphan-job',
          keys.job(row.id),
          undefined,
          `Job ${row.id} of queue ${name} is in none of ${keys.ready(name)}, its :delayed or its :reserved set: no pop will ever run it.`,
          `${NOT_REPAIRED} (requeueing needs one script and is fragile while the list's direction is undocumented). To run it, \`ZADD ${keys.delayed(name)} <now> ${row.id}\`, which its next pop moves to the ready list; or delete it with marko.`,
          null,
        ),
      );
    }
  }
}

function reportSkippedSearches({ keys, state, findings }: MarkoStep): void {
  for (const [name, count] of Object.entries(state.unsearched)) {
    findings.push(
      finding(
        'orphan-search-skipped',
        keys.ready(name),
        undefined,
        `${count} job hash${count === 1 ? '' : 'es'} of queue ${name} are in neither its delayed nor its reserved set, and were not found within ${LIST_SEARCH_LIMIT} ids of either end of ${keys.ready(name)}, which is too long for the doctor to keep its ids: whether they are orphans was not checked.`,
        'Nothing to repair; run the doctor again when the ready list is shorter.',
        null,
      ),
    );
  }
}

/** One page of the failed index (then of the failed records), each id checked against the other. */
async function checkFailedPage(step: MarkoStep, source: 'index' | 'records'): Promise<void> {
  const { queue, keys, state } = step;
  const page = await readFailedCheck.run(queue.redis, {
    failedJobs: keys.failedJobs,
    failedIndex: keys.failedIndex,
    source,
    position: state.cursor,
    count: FAILED_PAGE,
  });
  for (const row of page.rows) checkFailedRow(step, row.id, row.hasRecord, row.inIndex, row.recordIsJson);
  state.examined += page.rows.length;
  const done = source === 'index' ? page.rows.length < FAILED_PAGE : page.next === '0';
  if (done) enterPhase(state, source === 'index' ? 'failed-records' : 'done');
  else state.cursor = page.next;
}

/** Reports a failed id without record, a record without index entry, or a record that is not JSON (1 and 0 as the script answers). */
function checkFailedRow({ keys, findings }: MarkoStep, id: string, hasRecord: number, inIndex: number, json: number): void {
  if (hasRecord === 0) {
    findings.push(
      finding(
        'index-without-record',
        keys.failedIndex,
        id,
        `Failed job ${id} is in ${keys.failedIndex} with no record in ${keys.failedJobs}: it counts as failed, but there is nothing to read or retry.`,
        `Remove ${id} from ${keys.failedIndex} (only if its record is still missing).`,
        { kind: 'drop-index-entry', id },
      ),
    );
  }
  if (inIndex === 0) {
    findings.push(
      finding(
        'record-without-index',
        keys.failedJobs,
        id,
        `Failed job ${id} has a record in ${keys.failedJobs} but no entry in ${keys.failedIndex}, so marko's queue:failed, which lists through the index, does not show it${json === 0 ? ', and the record is not JSON' : ''}.`,
        `${NOT_REPAIRED}: the time it failed is not known to index it by. Read it and forget it (queuelens forget --id ${id}) if it is not needed.`,
        null,
      ),
    );
  } else if (json === 0) {
    findings.push(
      finding(
        'unreadable-failed-record',
        keys.failedJobs,
        id,
        `Failed job ${id}'s record in ${keys.failedJobs} is not a JSON object: marko's find() cannot decode it, so queue:retry cannot retry it.`,
        `${NOT_REPAIRED}. Forget it (queuelens forget --id ${id}) once its content is no longer needed.`,
        null,
      ),
    );
  }
}

/** Keeps the ids the ready walk saw while fewer than READY_IDS_KEPT are kept; past that, the queue is marked as not kept. */
function keepReadyIds(state: MarkoDoctorState, name: string, ids: string[]): void {
  const kept = Object.values(state.seenReady).reduce((sum, list) => sum + list.length, 0);
  if (state.readyNotKept.includes(name)) return;
  if (kept + ids.length > READY_IDS_KEPT) {
    state.readyNotKept = [...state.readyNotKept, name];
    delete state.seenReady[name];
    return;
  }
  (state.seenReady[name] ??= []).push(...ids);
}

export function startMarkoDoctor(): MarkoDoctorState {
  return { phase: 'queues', cursor: '0', index: 0, queues: [], seenReady: {}, readyNotKept: [], unsearched: {}, examined: 0, steps: 0 };
}

/** Applies marko repairs, each its own script that re-checks first: true where it changed something. */
export function repairMarko(queue: RedisConnection, keys: MarkoKeys, repairs: readonly MarkoRepair[]): Promise<boolean[]> {
  return runRepairScripts(queue, repairs, (pipeline, repair) =>
    dropIndexEntry.queue(pipeline, { failedJobs: keys.failedJobs, failedIndex: keys.failedIndex, id: repair.id }),
  );
}

/** The check and its repairs for marko queues under `keys.prefix`. */
export function markoDoctor(queue: RedisConnection, keys: MarkoKeys, names: readonly string[] | null): LayoutDoctor {
  return layoutDoctor({
    kinds: MARKO_FINDING_KINDS,
    start: startMarkoDoctor,
    step: async (state: MarkoDoctorState) => {
      const step = await markoDoctorStep(queue, keys, names, state);
      return { ...step, progress: describeMarkoProgress(step.state) };
    },
    apply: (repairs) => repairMarko(queue, keys, repairs),
  });
}
