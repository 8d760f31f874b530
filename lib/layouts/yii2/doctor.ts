import { findingId } from '../../shapes/doctor-kinds';
import { settledPipelines, settlePipeline } from '../../redis/pipeline';
import { exactJobId } from '../../shapes/job-ids';
import { YII2_FINDING_KINDS, type Yii2Finding, type Yii2FindingKind } from './doctor-kinds';
import { YII2_KEYS, type Yii2KeyName, type Yii2Keys } from './keys';
import { layoutDoctor, type LayoutDoctor } from '../layout-doctor';
import { doctorReadMessages } from './scripts';
import { applyYii2Repairs, type Yii2Channel, type Yii2EntryHash, type Yii2Index, type Yii2RepairAction } from './repairs';

export * from './doctor-kinds';

/** Entries per range, HSCAN COUNT and ids per pipeline: each step is a few bounded round trips. */
export const YII2_DOCTOR_BATCH = 1000;
/** ids the stock list's walk remembers, as bits from message_id down: 1 MiB at most. */
const LISTED_BITS = 2 ** 23;
/** Suspected orphans and duplicates read again later; beyond these they are reported as first seen. */
const MAX_SUSPECTS = 1000;
/** How long before a suspect is read again: the stock driver changes a job in several commands. */
export const DEFAULT_CONFIRM_AFTER_MS = 3000;
/** A due job or an expired reservation this long past its second that nobody moved means nobody works the channel. */
const OVERDUE_SECONDS = 60;
/** ng's strict band: priority × 10^12 + seq. */
const NG_BAND = 1e12;

/** Every key of a channel, stock and ng alike, by its name in Yii2Keys; each is checked for the type the drivers keep there (YII2_KEYS). */
const KEY_ROLES = Object.keys(YII2_KEYS) as Yii2KeyName[];

export type Yii2Phase = 'layout' | Yii2Index | 'messages' | Yii2EntryHash | 'confirm' | 'finish' | 'done';
const PHASES: Yii2Phase[] = [
  'layout',
  'waiting',
  'prioritized',
  'delayed',
  'reserved',
  'messages',
  'attempts',
  'priorities',
  'ranks',
  'confirm',
  'finish',
  'done',
];

/**
 * Where a check of one channel is between two steps. Plain data, so a page
 * can keep it and send it back for the next step, as StaticPHP's doctor.
 */
export interface Yii2DoctorState {
  phase: Yii2Phase;
  /** range offset (from the tail for the stock list) or HSCAN cursor */
  cursor: string;
  /** each key's Redis type as the check began */
  types: Partial<Record<Yii2KeyName, string>>;
  /** the Redis clock, in seconds, as the check began */
  now: number;
  /** message_id as read at the start; null when absent or not an integer */
  messageId: number | null;
  /** the ids the stock list's walk saw: bit i is id `listedBase + i` (base64) */
  listed: string;
  listedBase: number;
  /** ids that looked orphaned or duplicated, read again in the confirm phase */
  suspects: { id: string; seenAt: number }[];
  confirmAfterMs: number;
  /** the highest job id in any key */
  highestId: number;
  examined: number;
  steps: number;
}

export interface Yii2DoctorStep {
  state: Yii2DoctorState;
  findings: Yii2Finding[];
  done: boolean;
}

export function startYii2Doctor(confirmAfterMs = DEFAULT_CONFIRM_AFTER_MS): Yii2DoctorState {
  return {
    phase: 'layout',
    cursor: '0',
    types: {},
    now: 0,
    messageId: null,
    listed: '',
    listedBase: 1,
    suspects: [],
    confirmAfterMs,
    highestId: 0,
    examined: 0,
    steps: 0,
  };
}

const PHASE_LABELS: Record<Yii2Phase, string> = {
  layout: 'the keys',
  waiting: 'the stock list',
  prioritized: "ng's line",
  delayed: 'the delayed set',
  reserved: 'the reserved set',
  messages: 'the messages',
  attempts: 'attempts',
  priorities: 'priorities',
  ranks: 'ranks',
  confirm: 'suspects again',
  finish: 'the id counter',
  done: 'done',
};

/** What a state is doing, for a progress line. */
export function describeYii2Progress(channel: string, state: Yii2DoctorState): string {
  return state.phase === 'done'
    ? `Checked ${state.examined} keys and entries of channel ${channel}`
    : `Checking ${PHASE_LABELS[state.phase]} of channel ${channel} (${state.examined} keys and entries so far)`;
}

/** A finding as a step makes it; the step names the channel in its repair. */
type ChannelFinding = Omit<Yii2Finding, 'repair'> & { repair: Yii2RepairAction | null };

function finding(
  kind: Yii2FindingKind,
  { key, inside, id }: { key: string; inside?: string; id?: string },
  explanation: string,
  repairDescription: string,
  repair: Yii2RepairAction | null,
): ChannelFinding {
  const jobId = id === undefined ? undefined : exactJobId(id);
  const subject = inside === undefined ? key : `${key} ${inside}`;
  return { kind, severity: YII2_FINDING_KINDS[kind].severity, key, subject, explanation, repairDescription, repair, ...(jobId === undefined ? {} : { jobId }) };
}

const STOCK_NOT_ATOMIC =
  'The stock driver changes a job in several commands, so this was read twice a few seconds apart; read it again before repairing all the same.';

/** The bits of the stock list's walk: which ids it saw. */
class ListedIds {
  private bits: Buffer;
  constructor(private readonly state: Yii2DoctorState) {
    this.bits = Buffer.from(state.listed, 'base64');
  }
  private index(id: string): number | undefined {
    const number = exactJobId(id);
    const index = number === undefined ? -1 : number - this.state.listedBase;
    return index >= 0 && index < LISTED_BITS ? index : undefined;
  }
  /** Remembers `id`; true when the walk saw it already. */
  add(id: string): boolean {
    const index = this.index(id);
    if (index === undefined) return false;
    const byte = index >> 3;
    if (byte >= this.bits.length) this.bits = Buffer.concat([this.bits, Buffer.alloc(Math.max(byte + 1 - this.bits.length, this.bits.length))]);
    const seen = (this.bits[byte]! & (1 << (index & 7))) !== 0;
    this.bits[byte]! |= 1 << (index & 7);
    return seen;
  }
  /** true or false when the walk can say, undefined for an id outside the bits */
  has(id: string): boolean | undefined {
    const index = this.index(id);
    if (index === undefined) return undefined;
    return ((this.bits[index >> 3] ?? 0) & (1 << (index & 7))) !== 0;
  }
  save(): void {
    this.state.listed = this.bits.toString('base64');
  }
}

const INDEXES: Yii2Index[] = ['waiting', 'prioritized', 'delayed', 'reserved'];

/**
 * One bounded step of the check of one channel: a few pipelined round trips
 * over at most YII2_DOCTOR_BATCH entries. Repeat with the returned state
 * until `done`; runYii2Doctor does that. Reads only; findings carry repairs.
 */
export function yii2DoctorStep(channel: Yii2Channel, previous: Yii2DoctorState): Promise<Yii2DoctorStep> {
  const { connection } = channel;
  return connection.attempt(async () => {
    // A state of its own: the caller may keep the previous one (a page retrying a step sends it again).
    const state: Yii2DoctorState = { ...previous, types: { ...previous.types }, suspects: [...previous.suspects], steps: previous.steps + 1 };
    const findings: ChannelFinding[] = [];
    const context = { channel, state, findings };
    const advance = () => {
      state.phase = PHASES[PHASES.indexOf(state.phase) + 1]!;
      state.cursor = '0';
    };
    switch (state.phase) {
      case 'layout':
        await checkKeys(context);
        advance();
        break;
      case 'waiting':
        if (await walkStockList(context)) advance();
        break;
      case 'prioritized':
      case 'delayed':
      case 'reserved':
        if (await walkSortedSet(context, state.phase)) advance();
        break;
      case 'messages':
        if (await walkMessages(context)) advance();
        break;
      case 'attempts':
      case 'priorities':
      case 'ranks':
        if (await walkEntries(context, state.phase)) advance();
        break;
      case 'confirm':
        if (await confirmSuspects(context)) advance();
        break;
      case 'finish':
        await checkMessageId(context);
        advance();
        break;
      case 'done':
        break;
    }
    const named = findings.map(({ repair, ...rest }) => ({ ...rest, repair: repair && { ...repair, channel: channel.keys.channel } }));
    return { state, findings: named, done: state.phase === 'done' };
  });
}

interface StepContext {
  channel: Yii2Channel;
  state: Yii2DoctorState;
  findings: ChannelFinding[];
}

/** Whether the check began with `role` holding its own type (not absent, not another). */
function holds(state: Yii2DoctorState, role: Yii2KeyName): boolean {
  return state.types[role] === YII2_KEYS[role].type;
}

function noteId(state: Yii2DoctorState, id: string): void {
  const number = exactJobId(id);
  if (number !== undefined && number > state.highestId) state.highestId = number;
}

/** The layout phase: the Redis clock and each key's type, then what the channel's small keys say about it. */
async function checkKeys(context: StepContext): Promise<void> {
  await checkKeyTypes(context);
  await checkChannelState(context);
}

/** Reads the Redis clock and each key's type into the state; a key of another type is a finding. */
async function checkKeyTypes({ channel, state, findings }: StepContext): Promise<void> {
  const { connection, keys } = channel;
  const replies = await settledPipelines(connection.redis, KEY_ROLES.length + 1, (p, i) => (i === 0 ? p.time() : p.type(keys[KEY_ROLES[i - 1]!])));
  state.now = Number((replies[0] as [string, string])[0]);
  KEY_ROLES.forEach((role, i) => {
    const type = String(replies[i + 1]);
    state.types[role] = type;
    if (type !== 'none' && type !== YII2_KEYS[role].type) {
      findings.push(
        finding(
          'wrong-type',
          { key: keys[role] },
          `${keys[role]} is a ${type}, but both drivers keep a ${YII2_KEYS[role].type} there. Every command of the driver that touches it fails, so whatever needs it stops.`,
          "No automatic repair: what the key holds is not the queue's, and deleting it could lose somebody's data. Inspect it and rename or delete it by hand.",
          null,
        ),
      );
    }
  });
  state.examined += KEY_ROLES.length;
}

/** The id counter, a moving_lock that never expires, overdue jobs, and ng's stock list and marker. */
async function checkChannelState({ channel, state, findings }: StepContext): Promise<void> {
  const { connection, keys, driver } = channel;
  const overdueBefore = state.now - OVERDUE_SECONDS;
  // A key of another type answers WRONGTYPE here, which reads as nothing: its wrong-type finding says why.
  const [messageId, lockTtl, stockListLength, lineLength, markerExists, overdueDelayed, overdueReserved] = await settlePipeline(
    connection.redis
      .pipeline()
      .get(keys.messageId)
      .ttl(keys.movingLock)
      .llen(keys.waiting)
      .zcard(keys.prioritized)
      .exists(keys.marker)
      .zcount(keys.delayed, '-inf', overdueBefore)
      .zcount(keys.reserved, '-inf', overdueBefore),
  );
  const counter = typeof messageId === 'string' ? exactJobId(messageId) : undefined;
  state.messageId = counter ?? null;
  // The walk's bits cover the ids up to LISTED_BITS below the counter: the live jobs are the recent ones.
  state.listedBase = Math.max(1, (counter ?? 0) - LISTED_BITS + 1);

  if (holds(state, 'movingLock') && Number(lockTtl) === -1) {
    findings.push(
      finding(
        'stuck-moving-lock',
        { key: keys.movingLock },
        `${keys.movingLock} never expires: a stock clear() sets it so and died before deleting it. Stock reserves then never move due or expired jobs again, and the stock remove() waits for it forever.`,
        `Delete ${keys.movingLock} (only if it still has no expiry).`,
        { kind: 'drop-stuck-lock' },
      ),
    );
  }
  if (Number(overdueDelayed) > 0) {
    findings.push(
      finding(
        'overdue',
        { key: keys.delayed },
        `${overdueDelayed} delayed job(s) in ${keys.delayed} were due more than ${OVERDUE_SECONDS} s ago by the Redis clock and nobody moved them: ${driver === 'yii2-ng' ? 'nothing pushes or reserves' : 'no worker reserves'} on this channel, or the hosts' clocks run behind Redis.`,
        'No repair: the driver moves them at its next reserve. Start a worker, or promote them now from the delayed page.',
        null,
      ),
    );
  }
  if (Number(overdueReserved) > 0) {
    findings.push(
      finding(
        'overdue',
        { key: keys.reserved },
        `${overdueReserved} reservation(s) in ${keys.reserved} ran out more than ${OVERDUE_SECONDS} s ago and nobody put them back in line: ${driver === 'yii2-ng' ? 'nothing pushes or reserves' : 'no worker reserves'} on this channel, or the hosts' clocks run behind Redis.`,
        'No repair: the driver reclaims them at its next reserve. Start a worker, or release them now from the reservations page.',
        null,
      ),
    );
  }
  if (driver === 'yii2-ng' && Number(stockListLength) > 0) {
    findings.push(
      finding(
        'stock-list-under-ng',
        { key: keys.waiting },
        `${stockListLength} job(s) wait in the stock list ${keys.waiting}: stock pushers are still active, or a flatten() ran. ng workers take them over at their default or stored priority; fine as long as ng workers run.`,
        'No repair needed.',
        null,
      ),
    );
  }
  if (driver === 'yii2-ng' && Number(lineLength) > 0 && Number(markerExists) === 0) {
    findings.push(
      finding(
        'line-without-marker',
        { key: keys.marker },
        `${keys.prioritized} holds ${lineLength} job(s) but ${keys.marker} is gone: blocked ng listeners wait out their timeout before they look. Harmless otherwise.`,
        `Add member 0 to ${keys.marker} (only if the line still holds jobs and the marker is still gone), as every ng script that leaves jobs in line does.`,
        { kind: 'arm-marker' },
      ),
    );
  }
}

/** Where else `id` was found besides the index being walked, for a duplicate's explanation. */
function indexesHolding(keys: Yii2Keys, scores: { index: Yii2Index; score: unknown }[]): string[] {
  return scores.filter(({ score }) => typeof score === 'string').map(({ index }) => keys[index]);
}

function suspect(state: Yii2DoctorState, id: string): boolean {
  if (state.suspects.some((known) => known.id === id)) return true;
  if (state.suspects.length >= MAX_SUSPECTS) return false;
  state.suspects.push({ id, seenAt: Date.now() });
  return true;
}

function danglingId(keys: Yii2Keys, index: Yii2Index, id: string, driver: Yii2Channel['driver']): ChannelFinding {
  const effect: Record<Yii2Index, string> = {
    waiting:
      driver === 'yii2-ng'
        ? 'An ng reserve takes it over and then discards it.'
        : 'A stock reserve pops it and comes back empty, which ends `queue/run` before the real jobs behind it.',
    prioritized: 'An ng reserve pops it and discards it silently; until then it counts as waiting.',
    delayed: 'It counts as delayed, and once due it moves into line with nothing to run.',
    reserved: 'It counts as reserved, and once expired it moves back into line with nothing to run.',
  };
  return finding(
    'dangling-id',
    { key: keys[index], inside: id, id },
    `Job ${id} is in ${keys[index]}, but its message is gone from ${keys.messages}. ${effect[index]}`,
    `Remove ${id} from ${keys[index]} (only if its message is still gone).`,
    { kind: 'drop-dangling', index, id },
  );
}

/** The stock list, from its tail (the end that runs next) in windows: tail offsets do not move when pushes arrive at the head. */
async function walkStockList({ channel, state, findings }: StepContext): Promise<boolean> {
  const { connection, keys, driver } = channel;
  if (!holds(state, 'waiting')) return true;
  const offset = Number(state.cursor);
  const ids = (await connection.redis.lrange(keys.waiting, -(offset + YII2_DOCTOR_BATCH), -(offset + 1))).reverse();
  const others: Yii2Index[] = ['prioritized', 'delayed', 'reserved'];
  const replies = await settledPipelines(connection.redis, ids.length, (p, i) => {
    const id = ids[i]!;
    p.hexists(keys.messages, id);
    for (const index of others) p.zscore(keys[index], id);
  });
  const listed = new ListedIds(state);
  ids.forEach((id, i) => {
    noteId(state, id);
    const [hasMessage, ...scores] = replies.slice(4 * i, 4 * i + 4);
    const seenBefore = listed.add(id);
    if (Number(hasMessage) === 0) {
      findings.push(danglingId(keys, 'waiting', id, driver));
      return;
    }
    const alsoIn = indexesHolding(
      keys,
      others.map((index, at) => ({ index, score: scores[at] })),
    );
    if (seenBefore || alsoIn.length > 0) suspect(state, id);
  });
  listed.save();
  state.examined += ids.length;
  state.cursor = String(offset + ids.length);
  return ids.length < YII2_DOCTOR_BATCH;
}

/** ng's line, the delayed set or the reserved set by rank, in windows: dangling ids, duplicates across them, ng scores outside their band. */
async function walkSortedSet({ channel, state, findings }: StepContext, index: 'prioritized' | 'delayed' | 'reserved'): Promise<boolean> {
  const { connection, keys, driver, ng } = channel;
  if (!holds(state, index)) return true;
  const offset = Number(state.cursor);
  const flat = await connection.redis.zrange(keys[index], String(offset), String(offset + YII2_DOCTOR_BATCH - 1), 'WITHSCORES');
  const members = Array.from({ length: flat.length / 2 }, (_, i) => ({ id: flat[2 * i]!, score: Number(flat[2 * i + 1]) }));
  // Each pair of sets is compared once: from the earlier set in this order.
  const later = (['delayed', 'reserved'] as const).filter((other) => other !== index && (index === 'prioritized' || other === 'reserved'));
  const strictBand = index === 'prioritized' && driver === 'yii2-ng' && ng.aging === 0;
  const perMember = 1 + later.length + 1;
  const replies = await settledPipelines(connection.redis, members.length, (p, i) => {
    const { id } = members[i]!;
    p.hexists(keys.messages, id);
    for (const other of later) p.zscore(keys[other], id);
    p.hget(keys.priorities, id);
  });
  members.forEach(({ id, score }, i) => {
    noteId(state, id);
    const reply = replies.slice(perMember * i, perMember * (i + 1));
    if (Number(reply[0]) === 0) {
      findings.push(danglingId(keys, index, id, driver));
      return;
    }
    if (
      indexesHolding(
        keys,
        later.map((other, at) => ({ index: other, score: reply[1 + at] })),
      ).length > 0
    )
      suspect(state, id);
    if (strictBand) {
      const stored = reply[perMember - 1];
      const priority = typeof stored === 'string' && stored !== '' ? Number(stored) : ng.defaultPriority;
      const band = Math.floor(score / NG_BAND);
      if (band !== priority) {
        findings.push(
          finding(
            'score-outside-band',
            { key: keys.prioritized, inside: id, id },
            `Job ${id} scores ${score} in ${keys.prioritized}, which is priority ${band}'s band under strict priority, but its priority is ${priority}${typeof stored === 'string' && stored !== '' ? ` (${keys.priorities})` : ' (the default)'}. The processes disagree on defaultPriority or aging, or the score was edited; QueueLens's settings for this connection may be the ones that are wrong.`,
            'No automatic repair: hand-edited scores are unsafe while workers run. Check that every process and this connection use the same defaultPriority and aging.',
            null,
          ),
        );
      }
    }
  });
  state.examined += members.length;
  state.cursor = String(offset + members.length);
  return members.length < YII2_DOCTOR_BATCH;
}

/** The messages, in HSCAN steps read inside Redis (ids and TTR prefixes only): their prefix, and whether any index holds them. */
async function walkMessages({ channel, state, findings }: StepContext): Promise<boolean> {
  const { connection, keys, driver } = channel;
  if (!holds(state, 'messages')) return true;
  const { cursor, messages } = await doctorReadMessages.run(connection.redis, { messages: keys.messages, cursor: state.cursor, count: YII2_DOCTOR_BATCH });
  const zsets: Yii2Index[] = ['prioritized', 'delayed', 'reserved'];
  const listed = new ListedIds(state);
  const scores = await settledPipelines(connection.redis, messages.length, (p, i) => {
    for (const index of zsets) p.zscore(keys[index], messages[i]!.id);
  });
  const places = messages.map(({ id }, i) => ({ id, zsets: scores.slice(3 * i, 3 * i + 3), listed: listed.has(id) }));
  // In no sorted set and not seen in the stock list: it may have been pushed since the walk. LPOS scans from the head, where pushes land.
  const unplaced = places.filter((place) => place.zsets.every((score) => typeof score !== 'string') && place.listed !== true);
  const positions = await settledPipelines(connection.redis, holds(state, 'waiting') ? unplaced.length : 0, (p, i) => p.lpos(keys.waiting, unplaced[i]!.id));
  const inList = new Set(unplaced.filter((_, i) => typeof positions[i] === 'number').map(({ id }) => id));

  // With an index of another type, where a job is cannot be told: its wrong-type finding says why.
  const placementKnown = INDEXES.every((index) => state.types[index] === 'none' || holds(state, index));
  messages.forEach(({ id, ttr }, i) => {
    noteId(state, id);
    const place = places[i]!;
    const inSets = place.zsets.filter((score) => typeof score === 'string').length;
    const inStockList = place.listed === true || inList.has(id);
    if (placementKnown && inSets + (inStockList ? 1 : 0) !== 1 && !suspect(state, id))
      findings.push(placementFinding(channel, id, inSets + (inStockList ? 1 : 0), null));
    if (ttr === null) {
      findings.push(
        finding(
          'invalid-message',
          { key: keys.messages, inside: id, id },
          driver === 'yii2-ng'
            ? `Job ${id}'s message does not start with "<ttr>;". ng's reserve pops it, then fails on it (attempt to perform arithmetic on local 'ttr'); Redis keeps the pop, so the job becomes an orphan and the worker dies.`
            : `Job ${id}'s message does not start with "<ttr>;". A stock worker cannot unserialize what is left, reports it through afterError as an InvalidJobException and deletes it.`,
          'No automatic repair: the message is not what a driver wrote. Read it on its job page, then remove the job or write it again with its TTR prefix.',
          null,
        ),
      );
    }
    const expiry = place.zsets[2];
    if (ttr !== null && typeof expiry === 'string' && Number(expiry) - state.now > Number(ttr) + 1) {
      findings.push(
        finding(
          'reservation-beyond-ttr',
          { key: keys.reserved, inside: id, id },
          `Job ${id}'s reservation runs out at ${expiry}, ${Number(expiry) - state.now} s from now by the Redis clock, more than its TTR of ${ttr} s: the clock of the worker host that reserved it runs ahead of Redis (the stock driver scores by the host's time()).`,
          'No repair: it runs out by itself. Check the clocks of the worker hosts.',
          null,
        ),
      );
    }
  });
  listed.save();
  state.examined += messages.length;
  state.cursor = cursor;
  return cursor === '0';
}

/** An orphan (in no index) or a duplicate (in several), or null when in exactly one place. */
function placementFinding({ keys }: Yii2Channel, id: string, placeCount: number, places: string[] | null): ChannelFinding {
  if (placeCount === 0) {
    return finding(
      'orphan-message',
      { key: keys.messages, inside: id, id },
      `Job ${id} has a message in ${keys.messages} but is in none of ${keys.waiting}, ${keys.prioritized}, ${keys.delayed} or ${keys.reserved}: nothing will ever run it, and the driver already counts it as done. Causes: a stock push or reserve that died between its commands, an ng reserve that failed on a malformed message, or a hand edit. ${STOCK_NOT_ATOMIC}`,
      `Put job ${id} in line where the driver puts a job due this second (only if its message still exists, it is still in no index, and no stock worker holds ${keys.movingLock}).`,
      { kind: 'requeue-orphan', id },
    );
  }
  return finding(
    'duplicate-id',
    { key: keys.messages, inside: id, id },
    `Job ${id} is in ${places ? places.join(' and ') : 'more than one index'} at once, so it will run twice. Cause: a stock mover that died between its RPUSH and its ZREM, or a hand edit. ${STOCK_NOT_ATOMIC}`,
    'No automatic repair: which place is right depends on whether a worker holds it. Remove the extra copy by hand once you know.',
    null,
  );
}

/** Reads the suspects again, after confirmAfterMs: only what is still broken then is reported. */
async function confirmSuspects({ channel, state, findings }: StepContext): Promise<boolean> {
  const { connection, keys } = channel;
  const batch = state.suspects.slice(0, YII2_DOCTOR_BATCH);
  if (batch.length === 0) return true;
  const wait = Math.max(...batch.map(({ seenAt }) => seenAt + state.confirmAfterMs - Date.now()));
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, Math.min(wait, state.confirmAfterMs)));
  const zsets: Yii2Index[] = ['prioritized', 'delayed', 'reserved'];
  const replies = await settledPipelines(connection.redis, batch.length, (p, i) => {
    const { id } = batch[i]!;
    p.hexists(keys.messages, id);
    for (const index of zsets) p.zscore(keys[index], id);
    p.lpos(keys.waiting, id, 'COUNT', 2);
  });
  batch.forEach(({ id }, i) => {
    const [hasMessage, ...rest] = replies.slice(5 * i, 5 * i + 5);
    if (Number(hasMessage) !== 1) return;
    const positions = Array.isArray(rest[3]) ? rest[3].length : 0;
    const places = [
      ...zsets.filter((_, at) => typeof rest[at] === 'string').map((index) => keys[index]),
      ...Array.from({ length: positions }, () => keys.waiting),
    ];
    if (places.length !== 1) findings.push(placementFinding(channel, id, places.length, places));
  });
  state.suspects = state.suspects.slice(batch.length);
  state.examined += batch.length;
  return state.suspects.length === 0;
}

/** attempts, priorities or ranks in HSCAN steps: entries left for jobs whose message is gone. */
async function walkEntries({ channel, state, findings }: StepContext, hash: Yii2EntryHash): Promise<boolean> {
  const { connection, keys } = channel;
  if (!holds(state, hash) || !holds(state, 'messages')) return true;
  const [cursor, flat] = await connection.redis.hscan(keys[hash], state.cursor, 'COUNT', YII2_DOCTOR_BATCH);
  const ids = flat.filter((_, i) => i % 2 === 0);
  const exists = await settledPipelines(connection.redis, ids.length, (p, i) => p.hexists(keys.messages, ids[i]!));
  ids.forEach((id, i) => {
    noteId(state, id);
    if (Number(exists[i]) !== 0) return;
    findings.push(
      finding(
        'leaked-entry',
        { key: keys[hash], inside: id, id },
        `${keys[hash]} keeps an entry for job ${id}, whose message is gone${hash === 'attempts' ? '' : " (a stock worker acknowledging an ng job leaves it: stock delete does not know ng's keys)"}. Harmless but for memory${hash === 'attempts' ? '' : ', unless a job with this id is pushed again and inherits it'}.`,
        `Delete ${id} from ${keys[hash]} (only if its message is still gone).`,
        { kind: 'clean-leaked', hash, id },
      ),
    );
  });
  state.examined += ids.length;
  state.cursor = cursor;
  return cursor === '0';
}

async function checkMessageId({ channel, state, findings }: StepContext): Promise<void> {
  const { connection, keys } = channel;
  if (state.types.messageId !== 'none' && !holds(state, 'messageId')) return;
  if ((state.messageId ?? 0) >= state.highestId) return;
  // Read again: pushes since the start may have moved the counter on.
  const now = exactJobId((await connection.redis.get(keys.messageId)) ?? '') ?? 0;
  if (now >= state.highestId) return;
  findings.push(
    finding(
      'message-id-behind',
      { key: keys.messageId },
      `${keys.messageId} is ${now}, but job ${state.highestId} exists in the channel's keys. The next pushes would be given ids that are taken, and a push HSETs over the live message.`,
      `Set ${keys.messageId} to ${state.highestId} (only if it is still lower; it is never lowered: an old worker acknowledging job #k would delete a new job given the same id).`,
      { kind: 'raise-message-id', to: state.highestId },
    ),
  );
}

/**
 * The whole check of one channel, step after step; `onStep` sees each
 * step's progress. A finding found twice (an HSCAN may return an entry
 * twice) is reported once, as first found.
 */
export async function runYii2Doctor(
  channel: Yii2Channel,
  options: { onStep?: (state: Yii2DoctorState) => void; confirmAfterMs?: number } = {},
): Promise<Yii2Finding[]> {
  let state = startYii2Doctor(options.confirmAfterMs);
  const findings = new Map<string, Yii2Finding>();
  for (;;) {
    const step = await yii2DoctorStep(channel, state);
    for (const item of step.findings) if (!findings.has(findingId(item))) findings.set(findingId(item), item);
    state = step.state;
    options.onStep?.(state);
    if (step.done) return [...findings.values()];
  }
}

/** Where a check of a yii2 connection is: which of its channels, and how far in it. */
interface Yii2ConnectionCheck {
  channel: number;
  inner: Yii2DoctorState;
}

/** The doctor of a yii2 connection: every channel checked in turn, each repair applied in the channel it names. */
export function yii2LayoutDoctor(channels: readonly Yii2Channel[], confirmAfterMs = DEFAULT_CONFIRM_AFTER_MS): LayoutDoctor {
  return layoutDoctor<Yii2Finding, Yii2ConnectionCheck>({
    kinds: YII2_FINDING_KINDS,
    start: () => ({ channel: 0, inner: startYii2Doctor(confirmAfterMs) }),
    async step({ channel: at, inner }) {
      const channel = channels[at];
      if (channel === undefined) return { state: { channel: at, inner }, findings: [], done: true, progress: 'No channel to check' };
      const step = await yii2DoctorStep(channel, inner);
      const progress = describeYii2Progress(channel.keys.channel, step.state);
      const last = at + 1 >= channels.length;
      if (!step.done || last) return { state: { channel: at, inner: step.state }, findings: step.findings, done: step.done, progress };
      return { state: { channel: at + 1, inner: startYii2Doctor(confirmAfterMs) }, findings: step.findings, done: false, progress };
    },
    async apply(repairs) {
      const outcomes: boolean[] = new Array<boolean>(repairs.length).fill(false);
      for (const channel of channels) {
        const mine = repairs.flatMap((repair, at) => (repair.channel === channel.keys.channel ? [{ repair, at }] : []));
        const applied = await applyYii2Repairs(
          channel,
          mine.map(({ repair }) => repair),
        );
        mine.forEach(({ at }, i) => (outcomes[at] = applied[i] === true));
      }
      return outcomes;
    },
  });
}
