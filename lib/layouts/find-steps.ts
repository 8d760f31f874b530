import { QueueError } from '../redis/errors';
import type { LayoutCounts, QueueCounts } from './adapter';
import { bytesToText } from '../shapes/display-text';
import { FIND_STATES, isRanged, type FindMatch, type FindQuery, type FindRange, type FindState, type FindStep, type FindTimes } from '../shapes/find';
import { indexOfNeedle, type FindNeedle } from './find-text';

/**
 * The stepping every layout's Find shares: a search walks each queue's
 * indexes (streams, lists, sorted sets, a channel's messages), then the
 * indexes that span every queue (a failed set), one bounded chunk of one
 * index per step. The cursor names the queue by name, not by place, so a
 * queue added or dropped between two steps moves nothing else.
 */

/** One index a search walks: the ids of one state (or two, a StaticPHP stream's ready and held entries) of one queue or of all. */
export interface FindPart {
  /** the states its jobs can be in; a part with none of the wanted states is skipped unread */
  readonly states: readonly FindState[];
  /** what the layout's chunk reader needs to read it (a key, a kind) */
  readonly key: string;
  readonly kind: string;
  /**
   * Its positions are offsets (a list read with LRANGE, from its tail:
   * lua/includes/find.lua): a job taken out of a chunk already read moves
   * every unread one a place towards the tail, so the next chunk starts
   * that many places earlier (findStep's `taken`). Stream ids and SCAN
   * cursors need no such care.
   */
  readonly byOffset?: boolean;
  /**
   * Its index records a time: a sorted set's score, or a stream entry id's
   * ms, times this is Unix ms (1000: Unix seconds; -1000: Horizon's
   * -microtime; 1: a stream's ms). Left out where it records none.
   */
  readonly timeScale?: number;
}

/**
 * How a step reads. `bytes`, for an every-match removal on the server: each
 * match carries its job's exact bytes where the layout keeps a job as one
 * value (a Laravel payload), so that the removal acts on the bytes the
 * search matched and does not look the job up by its id again.
 */
export interface FindStepOptions {
  bytes?: boolean;
  /**
   * The layout's counts, where the caller holds them already (the served
   * app: the overview's latest tick, which every viewer shares): the first
   * step tells "about M" from them and reads none of its own. Left out, it
   * reads the layout's counts of every queue.
   */
  counts?: LayoutCounts;
}

/** A match as the server holds it: with its job's bytes where a step asked for them (never sent to a browser). */
export type FoundMatch = FindMatch & { bytes?: Buffer };

/** A step as the server holds it (its matches FoundMatch). */
export interface FoundStep extends FindStep {
  matches: FoundMatch[];
}

/**
 * One bounded chunk of a part: the matches, how many jobs were looked at,
 * where the next chunk starts (null: the part is done), and how many ids the
 * next chunk reads (nextChunkSize).
 */
export interface FindChunk {
  matches: FoundMatch[];
  looked: number;
  next: string | null;
  size: number;
}

/** What a layout tells the walker: its queues, each queue's parts, the parts over every queue, and how to read one chunk. */
export interface FindPlan {
  /** the states the layout has */
  readonly states: readonly FindState[];
  /** the time each state's index records, where it records one: a ranged search looks in those states alone */
  readonly times: FindTimes;
  /** every queue, in any order (the walker sorts them) */
  queues(): Promise<readonly string[]>;
  partsOf(queue: string): Promise<FindPart[]>;
  /**
   * Where a queue's parts depend on what Redis holds (StaticPHP's levels):
   * `read` asks once, when the walk comes to the queue, and the cursor
   * keeps the answer, from which `partsOf` builds the parts at every later
   * step of that queue without asking again. The parts also stay in place
   * for the queue's walk: a level added meanwhile moves no `p`.
   * `readAhead` reads several queues in one round trip, for parts read
   * together (`together`) across queues: each queue it could read, one it
   * could not being read alone when the walk comes to it (its error then
   * thrown there). Left out where `partsOf` asks Redis nothing.
   */
  readonly remembered?: {
    read(queue: string): Promise<string[]>;
    readAhead(queues: readonly string[]): Promise<Map<string, string[]>>;
    partsOf(queue: string, remembered: readonly string[]): FindPart[];
  };
  /** parts over every queue (a failed set whose entries name their queue) */
  readonly sharedParts: readonly FindPart[];
  /** the layout's counts of every queue, read when a search begins and no caller holds them (FindStepOptions.counts): about how many jobs it looks at */
  counts(): Promise<LayoutCounts>;
  /** one bounded Redis call over `part` from `position` ('' to start), of `size` ids as the chunk before sized it (undefined: the search's first) */
  readChunk(
    part: FindPart,
    position: string,
    query: FindQuery,
    states: readonly FindState[],
    options: FindStepOptions,
    size: number | undefined,
  ): Promise<FindChunk>;
  /**
   * Where given, a step that has read a part to its end with no match reads
   * the small parts after it several in one round trip: a Laravel
   * connection of 10,000 small queues is then walked a few round trips a
   * step, not a call for each queue and state. Left out, parts are read one
   * call each.
   */
  readonly together?: PartsReadTogether;
}

/** How a layout reads several small parts at once (FindPlan.together). */
export interface PartsReadTogether {
  /**
   * What reading each part whole costs now, one round trip: its ids, and
   * its weight in a chunk's ids (more than its ids where its jobs are larger
   * than the chunk budget's bytes allow for).
   */
  sizes(parts: readonly FindPart[]): Promise<{ ids: number; weight: number }[]>;
  /**
   * Each part from its start, `counts[i]` ids, one round trip, each sized for
   * the next chunk from `size` as readChunk sizes it; in each part's place
   * its chunk, or the error reading it met (thrown when the walk reaches
   * that part).
   */
  read(
    parts: readonly FindPart[],
    counts: readonly number[],
    query: FindQuery,
    states: readonly FindState[],
    options: FindStepOptions,
    size: number | undefined,
  ): Promise<(FindChunk | Error)[]>;
}

/** Where a search is: a queue (by name) and its part, or a shared part; the position in it; and the progress so far. */
interface FindCursor {
  /** the queue being walked; null once the shared parts are */
  q: string | null;
  p: number;
  at: string;
  looked: number;
  about: number;
  /** the range the search began with (rangeKey): a position read under one range is no position under another */
  r?: string;
  /** what FindPlan.remembered read of queue `q`, once its walk began */
  k?: string[];
  /** how many ids the next chunk reads, as the last one sized it (FindChunk.size); the next part's first chunk too, its jobs most likely alike */
  n?: number;
}

/** Parts a step may pass over unread (unwanted states, the end of a queue's parts) before it answers, so that one step stays bounded. */
const SKIPS_PER_STEP = 50;

/**
 * Chunks one step reads at most. A step goes on into the next part after a
 * chunk that ended its part with no match, until it has read a chunk's
 * worth of jobs: a connection of 10,000 small queues is then walked in
 * about one step per chunk's worth, not one request per queue and state.
 * Each chunk is still one bounded call of its own, other clients served
 * between them.
 */
export const CHUNKS_PER_STEP = 32;

/**
 * Parts one round trip reads at most (FindPlan.together). Redis runs a
 * round trip's calls one after another, other clients waiting, so the
 * parts read together weigh no more than what is left of the step's chunk.
 */
export const PARTS_READ_AT_ONCE = 16;

function encodeCursor(cursor: FindCursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursorOrThrow(text: string): FindCursor {
  try {
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as Partial<FindCursor>;
    if (
      (value.q === null || typeof value.q === 'string') &&
      Number.isInteger(value.p) &&
      typeof value.at === 'string' &&
      Number.isInteger(value.looked) &&
      Number.isInteger(value.about) &&
      (value.r === undefined || typeof value.r === 'string') &&
      (value.k === undefined || (Array.isArray(value.k) && value.k.every((item) => typeof item === 'string'))) &&
      (value.n === undefined || Number.isInteger(value.n))
    ) {
      return value as FindCursor;
    }
  } catch {
    // answered below
  }
  throw unreadableCursor();
}

function unreadableCursor(): QueueError {
  return new QueueError('The search cursor cannot be read: start the search again.', { invalidRequest: true });
}

/**
 * The states a query looks in on a layout: those it names that the layout
 * has, or every one the layout has; under a time range, only those whose
 * index records a time (`times`): a job with no time is neither in a range
 * nor out of it, so a ranged search leaves its state out and the page and
 * the CLI say so (lib/shapes/find.ts rangeScope).
 */
export function statesOf(query: FindQuery, layoutStates: readonly FindState[], times: FindTimes): FindState[] {
  const ranged = isRanged(query.range);
  return FIND_STATES.filter(
    (state) => layoutStates.includes(state) && (query.states.length === 0 || query.states.includes(state)) && (!ranged || times[state] !== undefined),
  );
}

/** A range as a cursor remembers it ('' for none). */
function rangeKey(range: FindRange | undefined): string {
  return isRanged(range) ? `${range.from ?? ''}..${range.until ?? ''}` : '';
}

/**
 * One step of `query` over `plan`, from `cursorText` (null: the first step).
 * `taken`: how many of the matches the step before returned have since been
 * taken out of the index it read (acting on every match removes them), so
 * that a list read by offset goes on where its next unread job now is.
 */
export async function findStep(plan: FindPlan, query: FindQuery, cursorText: string | null, taken = 0, options: FindStepOptions = {}): Promise<FoundStep> {
  const states = statesOf(query, plan.states, plan.times);
  const wanted = (part: FindPart) => part.states.some((state) => states.includes(state));
  const start = async (): Promise<FindCursor> => {
    const queues = await queuesOf(plan, query, true);
    const about = aboutFromCounts(options.counts ?? (await plan.counts()), query, states);
    return { q: queues[0] ?? null, p: 0, at: '', looked: 0, about, r: rangeKey(query.range) };
  };
  const cursor = cursorText === null ? await start() : decodeCursorOrThrow(cursorText);
  // A cursor comes back from the browser: one scoped to a queue walks that queue alone.
  if (query.queue !== null && cursor.q !== null && cursor.q !== query.queue) throw unreadableCursor();
  // A ranged walk starts a stream at the range and reads other indexes otherwise: its positions mean nothing under another range.
  if ((cursor.r ?? '') !== rangeKey(query.range)) throw unreadableCursor();
  if (taken > 0 && cursor.at !== '') {
    // A cursor inside a part is in the part its step read: the jobs taken came out of it.
    const parts = await partsAt(plan, cursor);
    if (parts[cursor.p]?.byOffset === true) cursor.at = String(Math.max(0, Number(cursor.at) - taken));
  }
  const stepStartedAt = cursor.looked;
  const progress = () => ({ looked: cursor.looked, about: Math.max(cursor.about, cursor.looked) });
  // Moves the cursor past `chunk`: the step it ends, or null to read on.
  const after = (chunk: FindChunk): FoundStep | null => {
    Object.assign(cursor, chunk.next === null ? { p: cursor.p + 1, at: '' } : { at: chunk.next }, { looked: cursor.looked + chunk.looked, n: chunk.size });
    // A step's matches are of its last chunk alone, so that `taken` (what acting on them took out) moves that chunk's part only.
    const full = chunk.matches.length > 0 || chunk.next !== null || cursor.looked - stepStartedAt >= chunk.size;
    return full ? { matches: chunk.matches, ...progress(), cursor: encodeCursor(cursor) } : null;
  };
  // What FindPlan.remembered read ahead in this step, for the parts read together.
  const readAhead = new Map<string, string[]>();
  // Whether the last chunk read its part whole, from its start: the parts after a small one are most likely small too.
  let readWhole = false;
  let skipped = 0;
  for (let chunks = 0; skipped < SKIPS_PER_STEP && chunks < CHUNKS_PER_STEP;) {
    if (readWhole && cursor.at === '' && plan.together !== undefined) {
      // The chunk before read a small part whole with no match, with some of the step's chunk left: the parts after it that fit in what
      // is left are read at once. After a large part (read over several chunks) the next is most likely large too, and asking the
      // sizes would cost a round trip for nothing: it is read alone.
      const fitting = await partsThatFit(plan, plan.together, query, cursor, wanted, readAhead, {
        limit: Math.min(PARTS_READ_AT_ONCE, CHUNKS_PER_STEP - chunks),
        skipsLeft: SKIPS_PER_STEP - skipped,
        weightLeft: (cursor.n ?? FIRST_CHUNK) - (cursor.looked - stepStartedAt),
      });
      if (fitting.length > 1) {
        const read = await plan.together.read(
          fitting.map(({ part }) => part),
          // One more than the part holds: a list read to its end only knows it ended when it reads fewer than it asked for.
          fitting.map(({ ids }) => ids + 1),
          query,
          states,
          options,
          cursor.n,
        );
        for (const [index, { q, p, k, skips }] of fitting.entries()) {
          skipped += skips;
          Object.assign(cursor, { q, p, at: '', k });
          const chunk = read[index]!;
          if (chunk instanceof Error) throw chunk;
          chunks++;
          const step = after(chunk);
          if (step !== null) return step;
        }
        readWhole = true;
        continue;
      }
    }
    const part = (await partsAt(plan, cursor))[cursor.p];
    if (part === undefined && cursor.q === null) return { matches: [], ...progress(), cursor: null };
    if (part === undefined || !wanted(part)) {
      await passOver(plan, query, cursor, part);
      skipped++;
      continue;
    }
    readWhole = cursor.at === '';
    const chunk = await plan.readChunk(part, cursor.at, query, states, options, cursor.n);
    chunks++;
    const step = after(chunk);
    if (step !== null) return step;
  }
  return { matches: [], ...progress(), cursor: encodeCursor(cursor) };
}

/**
 * Moves `cursor` past a part the walk does not read: an unwanted `part` to
 * the next part of its queue; the end of a queue's parts (`part`
 * undefined) to the next queue's first, or to the shared parts after the last.
 */
async function passOver(plan: FindPlan, query: FindQuery, cursor: FindCursor, part: FindPart | undefined): Promise<void> {
  const next = part === undefined ? { q: queueAfter(await queuesOf(plan, query), cursor.q!), p: 0, k: undefined } : { p: cursor.p + 1 };
  Object.assign(cursor, next, { at: '' });
}

/** A wanted part ahead of a cursor: where the cursor stands to read it, how many parts it passes over on the way, and its ids. */
interface PartAhead {
  q: string | null;
  p: number;
  k: string[] | undefined;
  part: FindPart;
  skips: number;
  ids: number;
}

/**
 * The wanted parts from `cursor` (at the start of a part) on, as the step's
 * walk would come to them, that together weigh no more than `weightLeft`:
 * at most `limit` of them, passing over at most `skipsLeft` parts on the
 * way (an unwanted one, the end of a queue's), and entering only queues
 * whose FindPlan.remembered is in `readAhead`. The cursor is not moved.
 */
async function partsThatFit(
  plan: FindPlan,
  together: PartsReadTogether,
  query: FindQuery,
  cursor: FindCursor,
  wanted: (part: FindPart) => boolean,
  readAhead: Map<string, string[]>,
  { limit, skipsLeft, weightLeft }: { limit: number; skipsLeft: number; weightLeft: number },
): Promise<PartAhead[]> {
  const walk = { ...cursor };
  await readRememberedAhead(plan, query, cursor.q, limit, readAhead);
  const ahead: Omit<PartAhead, 'ids'>[] = [];
  for (let skips = 0; ahead.length < limit && skips < skipsLeft;) {
    if (plan.remembered !== undefined && walk.q !== null && walk.k === undefined) {
      walk.k = readAhead.get(walk.q);
      // Not read ahead (it could not be, or lies further): the walk reads it alone when it comes to it, its error thrown there.
      if (walk.k === undefined) break;
    }
    const part = (await partsAt(plan, walk))[walk.p];
    if (part !== undefined && wanted(part)) {
      ahead.push({ q: walk.q, p: walk.p, k: walk.k, part, skips });
      skipsLeft -= skips;
      skips = 0;
      walk.p++;
      continue;
    }
    if (part === undefined && walk.q === null) break;
    await passOver(plan, query, walk, part);
    skips++;
  }
  if (ahead.length < 2) return [];
  const sizes = await together.sizes(ahead.map(({ part }) => part));
  const fitting: PartAhead[] = [];
  for (const [index, item] of ahead.entries()) {
    const { ids, weight } = sizes[index]!;
    if (weight > weightLeft) break;
    weightLeft -= weight;
    fitting.push({ ...item, ids });
  }
  return fitting;
}

/**
 * Reads into `readAhead` what FindPlan.remembered holds of the `count`
 * queues after `queue` that it lacks, in one round trip: a walk ahead
 * of `count` parts enters no more queues (each has a part at least).
 * Nothing where the plan remembers nothing, or past the last queue.
 */
async function readRememberedAhead(plan: FindPlan, query: FindQuery, queue: string | null, count: number, readAhead: Map<string, string[]>): Promise<void> {
  if (plan.remembered === undefined || queue === null) return;
  const sorted = await queuesOf(plan, query);
  const from = indexAfter(sorted, queue);
  const unread = sorted.slice(from, from + count).filter((name) => !readAhead.has(name));
  if (unread.length === 0) return;
  for (const [name, remembered] of await plan.remembered.readAhead(unread)) readAhead.set(name, remembered);
}

/** About how many jobs a search scoped to `query`'s queue and `states` looks at, from the layout's figures. */
function aboutFromCounts(counts: LayoutCounts<QueueCounts>, query: FindQuery, states: readonly FindState[]): number {
  const rows = counts.queues.filter((row) => query.queue === null || row.queue === query.queue);
  const sum = (pick: (row: QueueCounts) => number) => rows.reduce((total, row) => total + pick(row), 0);
  return (
    (states.includes('ready') ? sum((row) => row.pending) : 0) +
    (states.includes('delayed') ? sum((row) => row.delayed) : 0) +
    (states.includes('reserved') ? sum((row) => row.reserved) : 0) +
    (states.includes('failed') ? (counts.failed ?? 0) : 0)
  );
}

/** The parts of the cursor's queue (or the shared ones), read once a queue where the plan remembers them: the cursor then keeps what was read. */
async function partsAt(plan: FindPlan, cursor: FindCursor): Promise<FindPart[]> {
  if (cursor.q === null) return [...plan.sharedParts];
  const remembered = plan.remembered;
  if (remembered === undefined) return plan.partsOf(cursor.q);
  cursor.k ??= await remembered.read(cursor.q);
  return remembered.partsOf(cursor.q, cursor.k);
}

/**
 * How long the later steps of the searches on a plan walk one reading of
 * its queues: a connection of 10,000 queues would otherwise list (on
 * Laravel, SCAN) and sort them all again at the end of each queue's walk.
 * A search's first step reads them afresh (or joins a reading under way),
 * so a queue made just before it is walked; one added during a search is
 * walked once a later reading lists it, when the walk has not passed its
 * name.
 */
const QUEUE_LIST_KEEP_MS = 5_000;

const queueLists = new WeakMap<FindPlan, { readAt: number; settled: boolean; queues: Promise<readonly string[]> }>();

/**
 * The queues a search walks, in the order it walks them: the one it is
 * scoped to, else the plan's, as read at most QUEUE_LIST_KEEP_MS ago, or
 * afresh for a search's first step (`fresh`).
 */
function queuesOf(plan: FindPlan, query: FindQuery, fresh = false): Promise<readonly string[]> {
  if (query.queue !== null) return Promise.resolve([query.queue]);
  const kept = queueLists.get(plan);
  if (kept !== undefined && (!kept.settled || (!fresh && Date.now() - kept.readAt < QUEUE_LIST_KEEP_MS))) return kept.queues;
  const reading = { readAt: Date.now(), settled: false, queues: plan.queues().then((names) => [...new Set(names)].sort()) };
  queueLists.set(plan, reading);
  reading.queues.then(
    () => (reading.settled = true),
    // A reading that failed is not kept: the next step reads again.
    () => queueLists.get(plan) === reading && queueLists.delete(plan),
  );
  return reading.queues;
}

/** The first of `sorted` after `current` (which need not be among them any more); null past the last. */
function queueAfter(sorted: readonly string[], current: string): string | null {
  return sorted[indexAfter(sorted, current)] ?? null;
}

/** Where the first of `sorted` after `current` is, by binary search: `sorted.length` past the last. */
function indexAfter(sorted: readonly string[], current: string): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (sorted[middle]! > current) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The match inside `window` (bytes around it, as the chunk read them) cut in
 * three for a results row; null when the needle is not in it (a spelling
 * that matched in Redis but not as the user reads it). Under ignoreCase the
 * highlight is the window's own bytes, in the case they are stored in.
 */
export function snippetOf(window: Buffer, needle: FindNeedle): FindMatch['snippet'] | null {
  const at = indexOfNeedle(window, needle);
  if (at < 0) return null;
  const end = at + needle.bytes.length;
  return {
    before: bytesToText(window.subarray(0, at)),
    match: bytesToText(window.subarray(at, end)),
    after: bytesToText(window.subarray(end)),
  };
}

/** Bytes shown on either side of a match. */
export const SNIPPET_BYTES = 60;

/** Ids one chunk of an index reads at most where the script matches what the index itself holds (yii2's messages, Laravel's payloads): under a millisecond of Redis. */
export const FIND_CHUNK = 200;

/**
 * How a chunk reader sizes its chunks: at most `max` ids a call, and about
 * `bytes` bytes of job data, so that a call over large jobs reads fewer of
 * them (a chunk of 200 payloads of a megabyte would hold Redis for tens of
 * milliseconds).
 */
export interface ChunkBudget {
  readonly max: number;
  readonly bytes: number;
}

/**
 * Ids the first chunk of a search reads: a few, whatever the budget, since
 * nothing yet says how large the jobs are; the chunks after it are sized
 * by the bytes it read.
 */
export const FIRST_CHUNK = 10;

/** Ids this chunk reads: `size` as the chunk before sized it (FIRST_CHUNK for a search's first), within 1 and the budget's max. */
function chunkCount(budget: ChunkBudget, size: number | undefined): number {
  return Math.max(1, Math.min(budget.max, size ?? FIRST_CHUNK));
}

/** Ids the next chunk reads: as many as fit the budget's bytes at the bytes per job this one read (`looked` jobs, `bytes` bytes); `count` again when it looked at none. */
function nextChunkSize(budget: ChunkBudget, count: number, looked: number, bytes: number): number {
  if (looked === 0) return count;
  if (bytes === 0) return budget.max;
  return Math.max(1, Math.min(budget.max, Math.floor((budget.bytes * looked) / bytes)));
}

/** What one call of a find script read: a FindChunk but for the next chunk's size, and the bytes of job data the script says it read. */
export type ChunkRead = Omit<FindChunk, 'size'> & { bytes: number };

/**
 * One chunk of a part, read by `read` over as many ids as `size` (the chunk
 * before's FindChunk.size) and `budget` allow, and sized for the next chunk
 * by the bytes it read.
 */
export async function readSizedChunk(budget: ChunkBudget, size: number | undefined, read: (count: number) => Promise<ChunkRead>): Promise<FindChunk> {
  return sizedChunk(budget, size, await read(chunkCount(budget, size)));
}

/**
 * `read` as a chunk sized for the next one by the bytes it read, or `size`
 * again (as the chunk before sized it) when it read none: a chunk of fewer
 * ids (FindPlan.together) sizes the next as a whole one would.
 */
export function sizedChunk(budget: ChunkBudget, size: number | undefined, { bytes, ...chunk }: ChunkRead): FindChunk {
  return { ...chunk, size: nextChunkSize(budget, chunkCount(budget, size), chunk.looked, bytes) };
}

/**
 * Ids one chunk reads at most where the script reads each job's hash too
 * (StaticPHP, marko, Horizon's failed jobs): about 0.4 ms of Redis a call
 * (the median in bench/find.ts), so that a step stays well under 2 ms and
 * another reader waits behind less. Measured in bench/find.ts
 * (docs/benchmarks-history.md, Find): 100 a chunk passed 1 ms in 31–398
 * calls a pass and 2 ms in up to 8, and slowed another viewer up to 1.9×;
 * 50 passes 1 ms in 0–14 and 2 ms in 0–2, the viewer at most 1.13×, for a
 * pass 20–40 % longer.
 */
export const FIND_JOBS_CHUNK = 50;

/**
 * Chunks where the script reads each job's hash (FIND_JOBS_CHUNK): 50 jobs
 * of up to about 650 bytes of the fields Find reads (a live job of the
 * benchmark's 68, a failed one with its trace 438), fewer of larger ones, a
 * job of megabytes alone. Measured (docs/benchmarks-history.md, Find): 16 KiB, which
 * read the benchmark's failed jobs 37 a chunk, made no fewer calls over
 * 2 ms at a million jobs, in more calls.
 */
export const JOBS_CHUNK_BUDGET: ChunkBudget = { max: FIND_JOBS_CHUNK, bytes: 32 * 1024 };

/** Chunks where the script matches the index's own values (FIND_CHUNK): 200 payloads of about 600 bytes, fewer of larger ones. */
export const VALUES_CHUNK_BUDGET: ChunkBudget = { max: FIND_CHUNK, bytes: 128 * 1024 };
