import type { DoctorRepair } from './doctor-repairs';
import { settledPipelines, settlePipeline } from '../../redis/pipeline';
import type { RedisQueue } from './redis-queue';
import { isJson } from './job';
import { levelOf } from './keys';
import { patternUnder, scanStep } from '../../redis/scan-keys';
import { exactJobId } from '../../shapes/job-ids';
import { bytesToText } from '../../shapes/display-text';
import { FINDING_KINDS, findingId, startDoctor, type DoctorState, type Finding, type FindingKind, type Phase, type QueueInfo } from '../../shapes/doctor-kinds';

export * from '../../shapes/doctor-kinds';

export interface DoctorStep {
  state: DoctorState;
  findings: Finding[];
  done: boolean;
}

/** Keys per SCAN step (in SCAN_COUNT commands), entries per stream/set range: each step is a handful of bounded round trips. */
export const DOCTOR_BATCH = 1000;
/** Queue names per SSCAN step. */
const QUEUE_BATCH = 100;
/** Levels read per queue; a queue with more is reported only up to these. */
const MAX_LEVELS = 100;

function wrongType(key: string, expected: string, actual: string): Finding {
  return {
    kind: 'wrong-type',
    severity: 'critical',
    key,
    subject: key,
    explanation: `${key} is a ${actual}, but the queue layout keeps a ${expected} there. Every script that writes it refuses, so whatever needs it stops.`,
    repairDescription:
      "No automatic repair: what the key holds is not the queue's, and deleting it could lose somebody's data. Inspect it (TYPE, then read it) and rename or delete it by hand.",
    repair: null,
  };
}

/** A finding about `key` itself, or (`inside`) about one entry or member of it. */
function finding(
  kind: FindingKind,
  { key, inside, jobId }: { key: string; inside?: string; jobId?: number },
  explanation: string,
  repairDescription: string,
  repair: DoctorRepair | null,
): Finding {
  const subject = inside === undefined ? key : `${key} ${inside}`;
  return { kind, severity: FINDING_KINDS[kind].severity, key, subject, explanation, repairDescription, repair, ...(jobId === undefined ? {} : { jobId }) };
}

/** What a phase does with one step: reads a bounded batch, records findings, moves the state on. */
type PhaseCheck = (queue: RedisQueue, state: DoctorState, findings: Finding[]) => Promise<void>;

const PHASE_CHECKS: Record<Phase, PhaseCheck> = {
  layout: checkLayoutKeys,
  queues: checkQueueNames,
  streams: checkStreamEntries,
  delayed: checkDelayedIds,
  failed: checkFailedIds,
  jobs: checkJobHashes,
  unique: checkUniqueLocks,
  finish: checkSeqCounter,
  done: async () => {},
};

/**
 * One bounded step of the consistency check: a few pipelined round trips over
 * at most DOCTOR_BATCH keys or entries. Repeat with the returned state until
 * `done`; runDoctor does that. Reads only; the findings carry the repairs.
 */
export function doctorStep(queue: RedisQueue, previous: DoctorState): Promise<DoctorStep> {
  return queue.attempt(async () => {
    const state: DoctorState = { ...previous, steps: previous.steps + 1 };
    const findings: Finding[] = [];
    await PHASE_CHECKS[state.phase](queue, state, findings);
    return { state, findings, done: state.phase === 'done' };
  });
}

function enterPhase(state: DoctorState, phase: Phase): void {
  state.phase = phase;
  state.cursor = '0';
  state.index = 0;
  state.subIndex = 0;
}

/** The three keys every queue shares; a key of the wrong type is left out of the phases that would read it. */
async function checkLayoutKeys(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const { keys } = queue;
  const expected: [string, string][] = [
    [keys.queues, 'set'],
    [keys.failed, 'zset'],
    [keys.seq, 'string'],
  ];
  const types = (await settledPipelines(queue.redis, expected.length, (p, i) => p.type(expected[i]![0]))) as string[];
  expected.forEach(([key, type], index) => {
    const actual = types[index]!;
    if (actual !== 'none' && actual !== type) findings.push(wrongType(key, type, actual));
  });
  state.queuesReadable = types[0] === 'set' || types[0] === 'none';
  state.failedReadable = types[1] === 'zset' || types[1] === 'none';
  state.seqReadable = types[2] === 'string' || types[2] === 'none';
  if (types[2] === 'string') {
    const value = await queue.redis.get(keys.seq);
    state.seq = value !== null && /^-?\d+$/.test(value) ? Number(value) : 0;
  }
  state.examined += expected.length;
  enterPhase(state, state.queuesReadable && types[0] === 'set' ? 'queues' : 'failed');
}

/** One SSCAN step of the registered queues: their levels and delayed sets, and the stream of each level. */
async function checkQueueNames(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const [cursor, names] = await queue.redis.sscan(queue.keys.queues, state.cursor, 'COUNT', QUEUE_BATCH);
  const fresh = names.filter((name) => !state.queues.some((known) => known.name === name));
  const infos = await readQueueInfos(queue, fresh, findings);
  const streamCount = await checkLevelStreams(queue, infos, findings);
  state.queues = [...state.queues, ...infos];
  state.examined += names.length + streamCount;
  state.cursor = cursor;
  if (cursor === '0') enterPhase(state, 'streams');
}

/** Each queue's levels (MAX_LEVELS at most) and delayed count, where their keys have the right type. */
async function readQueueInfos(queue: RedisQueue, fresh: string[], findings: Finding[]): Promise<QueueInfo[]> {
  const { keys } = queue;
  const replies = await settledPipelines(queue.redis, fresh.length, (p, i) => {
    const name = fresh[i]!;
    p.type(keys.levels(name)).type(keys.delayed(name));
  });
  const levelReads = await settledPipelines(queue.redis, fresh.length, (p, i) => {
    const name = fresh[i]!;
    if (replies[2 * i] === 'zset') p.zrange(keys.levels(name), 0, String(MAX_LEVELS - 1));
    else p.echo('');
    if (replies[2 * i + 1] === 'zset') p.zcard(keys.delayed(name));
    else p.echo('0');
  });
  return fresh.map((name, i) => {
    const levelsType = String(replies[2 * i]);
    const delayedType = String(replies[2 * i + 1]);
    if (levelsType !== 'none' && levelsType !== 'zset') findings.push(wrongType(keys.levels(name), 'zset', levelsType));
    if (delayedType !== 'none' && delayedType !== 'zset') findings.push(wrongType(keys.delayed(name), 'zset', delayedType));
    return {
      name,
      levels: Array.isArray(levelReads[2 * i]) ? (levelReads[2 * i] as string[]) : [],
      delayed: Number(levelReads[2 * i + 1]) || 0,
      delayedReadable: delayedType === 'zset' || delayedType === 'none',
    };
  });
}

/** Reports levels whose stream is missing or no stream, and keeps in `infos` only the levels the streams phase can walk. Returns how many streams it typed. */
async function checkLevelStreams(queue: RedisQueue, infos: QueueInfo[], findings: Finding[]): Promise<number> {
  const { keys } = queue;
  const streams = infos.flatMap((info) => info.levels.map((level) => ({ info, level, key: keys.stream(info.name, level) })));
  const streamTypes = await settledPipelines(queue.redis, streams.length, (p, i) => p.type(streams[i]!.key));
  const readable = new Set<string>();
  streams.forEach(({ info, level, key }, i) => {
    const type = String(streamTypes[i]);
    if (type === 'stream') {
      readable.add(key);
    } else if (type === 'none') {
      findings.push(
        finding(
          'level-without-stream',
          { key },
          `Queue ${info.name} lists level ${level} in ${keys.levels(info.name)}, but ${key} does not exist. Harmless to workers (a reserve recreates the stream), but the level holds nothing.`,
          `Remove level ${level} from ${keys.levels(info.name)} (only if ${key} still does not exist).`,
          { kind: 'drop-level', queue: info.name, level },
        ),
      );
    } else {
      findings.push(wrongType(key, 'stream', type));
    }
  });
  for (const info of infos) info.levels = info.levels.filter((level) => readable.has(keys.stream(info.name, level)));
  return streams.length;
}

/** Walks each queue's level streams, one XRANGE page per step, queue by queue and level by level. */
async function checkStreamEntries(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const info = state.queues[state.index];
  if (!info) {
    enterPhase(state, 'delayed');
    return;
  }
  const level = info.levels[state.subIndex];
  if (!level) {
    state.index += 1;
    state.subIndex = 0;
    state.cursor = '0';
    return;
  }
  const entries = await checkStreamPage(queue, info.name, level, state.cursor, findings);
  state.examined += entries.length;
  if (entries.length < DOCTOR_BATCH) {
    state.subIndex += 1;
    state.cursor = '0';
  } else {
    state.cursor = entries[entries.length - 1]![0];
  }
}

/** Reports the entries of one page of a level stream whose job hash is gone (tombstones). */
async function checkStreamPage(queue: RedisQueue, name: string, level: string, after: string, findings: Finding[]): Promise<[string, string[]][]> {
  const { keys } = queue;
  const stream = keys.stream(name, level);
  const start = after === '0' ? '-' : `(${after}`;
  const reply = await settlePipeline(queue.redis.pipeline().xrange(stream, start, '+', 'COUNT', DOCTOR_BATCH));
  const entries = Array.isArray(reply[0]) ? (reply[0] as [string, string[]][]) : [];
  const ids = entries.map(([, fields]) => {
    const at = fields.indexOf('job');
    return at >= 0 && at % 2 === 0 ? (fields[at + 1] ?? '') : '';
  });
  const types = await settledPipelines(queue.redis, ids.length, (p, i) => (ids[i] === '' ? p.echo('none') : p.type(keys.job(ids[i]!))));
  entries.forEach(([entry], i) => {
    if (types[i] === 'hash') return;
    findings.push(
      finding(
        'tombstone-entry',
        { key: stream, inside: entry, jobId: exactJobId(ids[i]) },
        `Entry ${entry} of ${stream} carries job ${ids[i] || '(none)'}, whose hash is gone. A reserve would drop it; until then it counts as a job waiting.`,
        `Acknowledge and delete entry ${entry} from ${stream} (only if the job hash is still gone).`,
        { kind: 'drop-tombstone', queue: name, level, entry },
      ),
    );
  });
  return entries;
}

/** Walks each queue's delayed set, one ZRANGE page per step, for members that are no job id. */
async function checkDelayedIds(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const info = state.queues[state.index];
  if (!info) {
    enterPhase(state, 'failed');
    return;
  }
  if (!info.delayedReadable || info.delayed === 0) {
    state.index += 1;
    state.cursor = '0';
    return;
  }
  const delayedKey = queue.keys.delayed(info.name);
  const offset = Number(state.cursor);
  const ids = await queue.redis.zrange(delayedKey, offset, String(offset + DOCTOR_BATCH - 1));
  const types = await settledPipelines(queue.redis, ids.length, (p, i) => p.type(queue.keys.job(ids[i]!)));
  ids.forEach((text, i) => {
    // A job id whose hash is gone is the PHP driver's own state, not a
    // finding: a job parked by a reclaim and then finished by the worker
    // that still held it. The queue's next reserve drops it when due.
    if (types[i] === 'hash' || exactJobId(text) !== undefined) return;
    findings.push(
      finding(
        'dangling-delayed',
        { key: delayedKey, inside: text },
        `${delayedKey} holds ${text}, which is no job id: no driver writes one. The queue's next reserve drops it when it is due; until then it is counted as delayed.`,
        'No repair: the driver drops it. Remove it by hand to correct the count sooner.',
        null,
      ),
    );
  });
  state.examined += ids.length;
  if (ids.length < DOCTOR_BATCH) {
    state.index += 1;
    state.cursor = '0';
  } else {
    state.cursor = String(offset + ids.length);
  }
}

/** One ZRANGE page of the failed set, for ids whose job hash is gone. */
async function checkFailedIds(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  if (!state.failedReadable) {
    enterPhase(state, 'jobs');
    return;
  }
  const { keys } = queue;
  const offset = Number(state.cursor);
  const ids = await queue.redis.zrange(keys.failed, offset, String(offset + DOCTOR_BATCH - 1));
  const replies = await settledPipelines(queue.redis, ids.length, (p, i) => p.type(keys.job(ids[i]!)));
  ids.forEach((text, i) => {
    if (replies[i] === 'hash') return;
    const id = exactJobId(text);
    findings.push(
      finding(
        'dangling-failed',
        { key: keys.failed, inside: text, jobId: id },
        `Job ${text} is in ${keys.failed}, but its hash is gone: there is nothing to retry or read, only a count that is off by one.`,
        `Remove ${text} from ${keys.failed} (only if its hash is still gone).`,
        id === undefined ? null : { kind: 'drop-failed', id },
      ),
    );
  });
  state.examined += ids.length;
  if (ids.length < DOCTOR_BATCH) enterPhase(state, 'jobs');
  else state.cursor = String(offset + ids.length);
}

/** One SCAN step of the job hashes. */
async function checkJobHashes(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const { cursor, found } = await scanStep(queue.nodeHoldingKeys(), state.cursor, patternUnder(queue.keys.job('')), DOCTOR_BATCH);
  await checkJobs(queue, state, found, findings);
  state.examined += found.length;
  state.cursor = cursor;
  if (cursor === '0') enterPhase(state, 'unique');
}

/** One SCAN step of the unique-key locks. */
async function checkUniqueLocks(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const { cursor, found } = await scanStep(queue.nodeHoldingKeys(), state.cursor, patternUnder(queue.keys.unique('')), DOCTOR_BATCH);
  await checkUniqueKeys(queue, found, findings);
  state.examined += found.length;
  state.cursor = cursor;
  if (cursor === '0') enterPhase(state, 'finish');
}

/** Whether the id counter is below the highest job id the jobs phase saw. */
async function checkSeqCounter(queue: RedisQueue, state: DoctorState, findings: Finding[]): Promise<void> {
  const { keys } = queue;
  if (state.seqReadable && (state.seq ?? 0) < state.highestId) {
    // Read again: pushes since the start may have moved the counter on.
    const now = Number((await queue.redis.get(keys.seq)) ?? 0);
    if (!(now >= state.highestId)) {
      findings.push(
        finding(
          'seq-behind',
          { key: keys.seq },
          `${keys.seq} is ${now}, but job ${state.highestId} exists. The next pushes would be handed ids that are taken; PUSH refuses rather than overwrite a job, so pushing stops until the counter is raised.`,
          `Set ${keys.seq} to ${state.highestId} (only if it is still lower; it is never lowered).`,
          { kind: 'raise-seq', to: state.highestId },
        ),
      );
    }
  }
  // A registered queue with nothing left is no finding: PHP never
  // unregisters a queue (nor its levels and drained streams), so it is
  // the layout PHP itself leaves behind, and a push reuses it.
  enterPhase(state, 'done');
}

const JOB_READ_FIELDS = ['queue', 'priority', 'entry', 'attempts', 'max_attempts'] as const;

interface JobRead {
  key: string;
  id: number;
  queue: string;
  entry: string;
  attempts: number;
  maxAttempts: number;
  stream: string;
  payloadIsJson: boolean;
}

/** Where a job is: in its stream (and handed to a worker or not), delayed, failed. */
interface JobPlace {
  inFailed: boolean;
  inDelayed: boolean;
  inStream: boolean;
  delivered: boolean;
}

async function checkJobs(queue: RedisQueue, state: DoctorState, found: string[], findings: Finding[]): Promise<void> {
  const jobs = await readJobHashes(queue, state, found, findings);
  const places = await placeJobs(queue, jobs);
  jobs.forEach((job, i) => checkJobPlace(queue, job, places[i]!, findings));
}

/** The numbered job hashes among `found` (raising state.highestId) and their fields; keys of another type are reported. */
async function readJobHashes(queue: RedisQueue, state: DoctorState, found: string[], findings: Finding[]): Promise<JobRead[]> {
  const { keys } = queue;
  const jobKeys = found.flatMap((key) => {
    const text = key.slice(keys.prefix.length + 2);
    const id = Number(text);
    return /^[1-9]\d*$/.test(text) && Number.isSafeInteger(id) ? [{ key, id }] : [];
  });
  for (const { id } of jobKeys) state.highestId = Math.max(state.highestId, id);
  const types = await settledPipelines(queue.redis, jobKeys.length, (p, i) => p.type(jobKeys[i]!.key));
  const hashes = jobKeys.filter(({ key }, i) => {
    const type = String(types[i]);
    if (type !== 'hash') findings.push(wrongType(key, 'hash', type));
    return type === 'hash';
  });
  const fieldReplies = await settledPipelines(queue.redis, hashes.length, (p, i) =>
    p.hmget(hashes[i]!.key, ...JOB_READ_FIELDS).hgetBuffer(hashes[i]!.key, 'payload'),
  );
  return hashes.map(({ key, id }, i) => {
    const values = Array.isArray(fieldReplies[2 * i]) ? (fieldReplies[2 * i] as (string | null)[]) : [];
    const payload = fieldReplies[2 * i + 1];
    const [name, priority, entry, attempts, maxAttempts] = JOB_READ_FIELDS.map((_, at) => values[at] ?? '');
    return {
      key,
      id,
      queue: name!,
      entry: entry!,
      attempts: Number(attempts) || 0,
      maxAttempts: Number(maxAttempts) || 1,
      stream: keys.stream(name!, levelOf(priority!)),
      payloadIsJson: Buffer.isBuffer(payload) ? isJson(bytesToText(payload)) : false,
    };
  });
}

async function placeJobs(queue: RedisQueue, jobs: JobRead[]): Promise<JobPlace[]> {
  const { keys, settings } = queue;
  const where = await settledPipelines(queue.redis, jobs.length, (p, i) => {
    const job = jobs[i]!;
    p.zscore(keys.failed, String(job.id));
    if (job.queue === '') p.echo('').echo('').echo('');
    else {
      p.zscore(keys.delayed(job.queue), String(job.id));
      if (job.entry === '') p.echo('').echo('');
      else p.xrange(job.stream, job.entry, job.entry, 'COUNT', 1).xpending(job.stream, settings.group, job.entry, job.entry, 1);
    }
  });
  return jobs.map((job, i) => {
    const [failedScore, delayedScore, range, pending] = where.slice(4 * i, 4 * i + 4);
    const rangeEntries = Array.isArray(range) ? (range as [string, string[]][]) : [];
    return {
      inFailed: typeof failedScore === 'string',
      inDelayed: typeof delayedScore === 'string',
      inStream: rangeEntries.some(([, fields]) => fields[fields.indexOf('job') + 1] === String(job.id)),
      delivered: Array.isArray(pending) && pending.length > 0,
    };
  });
}

/** Reports a job no worker can reach, an entry field naming a missing entry, or a waiting payload no handler can read. */
function checkJobPlace(queue: RedisQueue, job: JobRead, { inFailed, inDelayed, inStream, delivered }: JobPlace, findings: Finding[]): void {
  const about = { key: job.key, jobId: job.id };
  if (job.queue === '') {
    findings.push(
      finding(
        'orphan-job',
        about,
        `Job ${job.id} has no queue field, so no stream, delayed set or worker can ever reach it.`,
        'No automatic repair: there is no queue to put it back on. Read it on its job page and delete it by hand if it is not needed.',
        null,
      ),
    );
    return;
  }
  if (!inStream && !inDelayed && !inFailed) {
    findings.push(
      finding(
        'orphan-job',
        about,
        `Job ${job.id} of queue ${job.queue} is in no stream, delayed set or failed set and no worker holds it: it will never run.`,
        `Put job ${job.id} back at the end of ${job.stream}, keeping its ${job.attempts} of ${job.maxAttempts} attempts (only if it is still in none of them). Requeued rather than deleted: the hash is the job, and complete() would have deleted it, so it never finished.`,
        { kind: 'requeue-orphan', id: job.id },
      ),
    );
    return;
  }
  if (job.entry !== '' && !inStream) {
    findings.push(
      finding(
        'dangling-entry',
        about,
        `Job ${job.id}'s entry field names ${job.entry}, which is not in ${job.stream}; the job waits in the ${inFailed ? 'failed' : 'delayed'} set, where entry should be empty.`,
        `Set job ${job.id}'s entry to '' (only if it still names that missing entry).`,
        { kind: 'clear-entry', id: job.id, entry: job.entry },
      ),
    );
  }
  // A job waiting with attempts >= max_attempts is no finding: a PHP
  // handler that releases itself on its last attempt leaves exactly that,
  // and the PHP worker runs it.
  const waiting = inDelayed || (inStream && !delivered);
  if (!inFailed && waiting && !job.payloadIsJson) {
    findings.push(
      finding(
        'invalid-payload',
        about,
        `Job ${job.id}'s payload is not JSON, so no handler can be given it; a reserve would fail it on the spot.`,
        `Fail job ${job.id} now with "Payload is not valid JSON…" and move it to ${queue.keys.failed} (only if no worker holds it).`,
        { kind: 'fail-invalid-payload', id: job.id },
      ),
    );
  }
}

async function checkUniqueKeys(queue: RedisQueue, found: string[], findings: Finding[]): Promise<void> {
  const { keys } = queue;
  const types = await settledPipelines(queue.redis, found.length, (p, i) => p.type(found[i]!));
  const strings = found.filter((key, i) => {
    const type = String(types[i]);
    if (type !== 'string') findings.push(wrongType(key, 'string', type));
    return type === 'string';
  });
  const owners = await settledPipelines(queue.redis, strings.length, (p, i) => p.get(strings[i]!));
  const holders = await settledPipelines(queue.redis, strings.length, (p, i) => {
    const owner = typeof owners[i] === 'string' ? (owners[i] as string) : '';
    p.type(keys.job(owner)).hget(keys.job(owner), 'unique_key');
  });
  strings.forEach((key, i) => {
    const owner = typeof owners[i] === 'string' ? (owners[i] as string) : '';
    const uniqueKey = key.slice(keys.prefix.length + 2);
    const exists = holders[2 * i] === 'hash';
    const held = holders[2 * i + 1];
    if (exists && held === uniqueKey) return;
    findings.push(
      finding(
        'wrong-unique',
        { key, jobId: exactJobId(owner) },
        exists
          ? `${key} says job ${owner} holds unique key "${uniqueKey}", but that job's unique_key is ${held ? `"${String(held)}"` : 'empty'}: pushes with this key collapse into a job that does not hold it.`
          : `${key} names job ${owner}, which is gone. A push treats it as free, but it stays until then.`,
        `Delete ${key} (only if it still names job ${owner} and that job still does not hold the key).`,
        { kind: 'free-unique', key: uniqueKey, id: owner },
      ),
    );
  });
}

/** The whole check, step after step; `onStep` sees each step's progress. Findings are deduplicated. */
export async function runDoctor(queue: RedisQueue, onStep?: (state: DoctorState) => void): Promise<Finding[]> {
  let state = startDoctor();
  const findings = new Map<string, Finding>();
  for (;;) {
    const step = await doctorStep(queue, state);
    for (const item of step.findings) findings.set(findingId(item), item);
    state = step.state;
    onStep?.(state);
    if (step.done) return [...findings.values()];
  }
}
