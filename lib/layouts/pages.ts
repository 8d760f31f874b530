import type { FindQuery, FindState, FindTimes } from '../shapes/find';
import type { DelayedTimeline } from '../shapes/delayed-timeline';
import type { FailedFilter, FailedPage, FailedRowView, FailedSearchChunk } from '../shapes/failed-jobs';
import type { LevelView } from '../shapes/priority-levels';
import type { QueueStats } from '../shapes/queue-counts';
import type { Absent } from './adapter';
import type { DisplayValue } from '../shapes/display-text';
import type { JobLocation, SeenPlace } from '../shapes/job-location';
import type { TrashWrite } from '../shapes/trash';
import type { KeyContents } from './key-layout';
import type { FindStepOptions, FoundStep } from './find-steps';
import type { PhpParse } from './php-serialized';
import type { JobIdAsRead } from '../shapes/job-ids';
import type { ClaimRepairOutcome, SeenReservation, SeenTombstone } from '../shapes/claim-repairs';

/**
 * The shapes of the pages every layout fills: plain data, no React, the
 * same for StaticPHP's queues, yii2's channels and marko's queues; optional
 * fields carry what one layout knows more of (a holder, a level, a job hash).
 * Ids are text: StaticPHP's and yii2's are decimal and 64-bit, beyond what a
 * JS number holds exactly; marko's are UUIDs.
 */

/**
 * Rows one page of a paged list shows. A reservations row is about 2.2 KB of
 * HTML (the row and its share of the hydration data) and most of a page's
 * rendering time: at 50 rows a page was 155–170 KB and fifty requests at
 * once took 1.8–2.4 s at p95 on the 2-core benchmark machine, where the whole
 * list of a thousand was 1.79 MB and 5.8 s.
 */
export const PAGE_ROWS = 25;

/** Which page of a list: from 1. */
export interface PageRequest {
  page: number;
}

/** A row of a list page that says where its job is, where the layout finds a job by searching its structures (SeenPlace: Laravel), for the job's page and repairs to look there first; left out elsewhere. */
export interface SeenRow {
  near?: SeenPlace;
}

/** One waiting job as a line shows it. */
export interface LineJob extends SeenRow {
  /** 1 runs next */
  place: number;
  id: string;
  /** the job's class or name; null when the message cannot be read for a list (see note) */
  name: string | null;
  attempts: number;
  /** null where the layout has no priorities */
  priority: number | null;
  /** seconds; null when the message carries none or was not read; left out where the layout's jobs have no TTR of their own */
  ttr?: number | null;
  /** what is wrong with the row, in words: an id with no message, a message too large to read here */
  note: string | null;
  /** when it joined the line, ms since the epoch, where the layout can tell (StaticPHP: its stream entry's id) */
  enqueuedAt?: number;
  /** why the id is shown but neither linked nor acted on (a StaticPHP id past 2^53); left out when it can be */
  idNote?: string;
  /** why Remove is not offered on it: it is too deep in a long list for a removal to reach (unremovableAt); left out where it can be removed */
  unremovable?: string;
}

/** One part of a queue's line, in the order it runs, one page of it. */
export interface LineSection {
  title: string;
  /** how the layout's driver takes jobs from this section */
  description: string;
  /** jobs in the section in all */
  total: number;
  /** places before the first row */
  offset: number;
  rows: LineJob[];
}

/**
 * Jobs in no section that the driver puts into the line on its next reserve
 * (yii2: due delayed jobs and expired reservations no worker has moved yet),
 * counted so the page can say above row 1 that they go there first.
 */
export interface NotInLineYet {
  dueDelayed: number;
  expiredReservations: number;
  /** where the driver puts them, in the layout's words: "the next reserve puts them ahead of row 1" */
  where: string;
}

/** A queue's waiting jobs in the order its driver runs them: the line first (its first row the next job), then what joins it next. */
export interface JobLine {
  queue: string;
  /** the Redis server's clock, unix seconds */
  now: number;
  sections: LineSection[];
  /** left out where jobs outside the line join it behind every row (marko's tail) or the layout counts none */
  notInLineYet?: NotInLineYet;
  /**
   * The queue's figures as the overview counts them, where the line is not
   * all the page should count (StaticPHP: pending counts due delayed jobs,
   * and reserved and delayed jobs are in no section): shown instead of each
   * section's total.
   */
  counts?: QueueStats;
  /** the streams the line is kept in, where the layout has several (StaticPHP's priority levels, highest first), and how many there are in all */
  levels?: { rows: LevelView[]; total: number };
  /** the queue's newest failed jobs, where the layout keeps them with their queue's name, found among the newest `scanLimit` failed jobs of every queue */
  latestFailed?: { rows: FailedRowView[]; scanLimit: number };
  /** a job's id names it on the whole connection (StaticPHP's one counter), so its link needs no queue; left out, links name the queue */
  idsOfConnection?: boolean;
  /** the page shows a glance at the queue's delayed timeline and its jobs due soonest, where the line says nothing of them (StaticPHP); left out, the line's note links the delayed page */
  delayedGlance?: boolean;
}

/** A queue's waiting jobs, a page at a time. Throws QueueError for a queue the connection does not have. */
export interface JobLineReader {
  read(queue: string, page: PageRequest): Promise<JobLine>;
}

/**
 * What a reservation's claim is, where the layout records who holds it
 * (StaticPHP: a pending stream entry and its job hash's reserved_by):
 * - running: the claim runs until a moment still ahead;
 * - overdue: the claim ran out and no worker took the job back yet;
 * - tombstone: the job is gone (or the entry itself was deleted): nothing to run;
 * - mismatch: the job no longer agrees with this hand-out.
 */
export type ClaimState = 'running' | 'overdue' | 'tombstone' | 'mismatch';

/** What a layout that records the holder knows more of a reservation: the hand-out, its holder and its claim, as stored. */
export interface Claim {
  /** the queue it was taken from: rows grouped by holder span queues */
  queue: string;
  /** the priority level the hand-out was taken from */
  level: string;
  /** the key of the stream the hand-out is in */
  stream: string;
  /** the hand-out's entry id in that stream */
  entry: string;
  /** the job id the hand-out names (digits past 2^53 as text, which no repair acts on); null when it names none */
  jobId: JobIdAsRead | null;
  state: ClaimState;
  /** why a mismatch is one, in words */
  mismatch: string | null;
  /** who holds the job (host:pid), '' when the job names nobody */
  holder: string;
  /** the claim's deadline as stored, '' when gone: a repair acts only while it still says this */
  reservedUntil: string;
  /** attempts as stored, null when the job is gone: a repair acts only while it still says this */
  attempts: string | null;
  maxAttempts: string | null;
  /** ms since the hand-out was last delivered */
  idleMs: number;
  /** how many times it was delivered */
  deliveries: number;
  /** the timeout the holder claimed it with; null unless running or overdue */
  timeoutSeconds: number | null;
}

/** One reservation as a page lists it. */
export interface ExpiringReservation extends SeenRow {
  id: string;
  name: string | null;
  attempts: number;
  priority: number | null;
  /** when the reservation runs out, unix seconds; null when it names no deadline (a hand-out whose job is gone) */
  expiresAt: number | null;
  /** when it was taken, as well as the layout can tell; null when it cannot */
  reservedSince: number | null;
  /** expiresAt ≤ now */
  expired: boolean;
  note: string | null;
  /** its holder and claim, where the layout records them */
  claim?: Claim;
}

/** One queue's reservations, soonest expiry first, one page of them. */
export interface QueueReservations {
  queue: string;
  total: number;
  live: number;
  expired: number;
  offset: number;
  rows: ExpiringReservation[];
  /** what happens to an expired one, in the layout's words */
  expiredMeans: string;
}

/**
 * A job a reclaim parked until its holder's deadline (StaticPHP: RESERVE
 * put it in the delayed set instead of running it a second time): no
 * hand-out is left, but the holder still has it.
 */
export interface ParkedReservation {
  queue: string;
  jobId: JobIdAsRead;
  name: string | null;
  holder: string;
  /** the holder's deadline as stored */
  reservedUntil: string;
  /** when the next reserve puts it back in line, unix seconds */
  untilSeconds: number;
  attempts: string | null;
  maxAttempts: string | null;
}

/** One holder's reservations on a page. */
export interface HolderReservations {
  /** host:pid; null for the hand-outs nobody holds (tombstones and mismatches) */
  holder: string | null;
  /** longest held first; only the page's */
  rows: ExpiringReservation[];
  /** the holder's parked jobs, soonest back first; on the first page only */
  parked: ParkedReservation[];
  /** how many hand-outs the holder holds, on every page */
  held: number;
  /** the timeout most of this holder's claims imply; null when none of them tells */
  timeoutSeconds: number | null;
}

/**
 * The reservations of a layout that records holders, grouped by holder over
 * every queue (or the one asked for) and paged as one list.
 */
export interface ReservationsByHolder {
  /** holders by name, then the hand-outs nobody holds */
  groups: HolderReservations[];
  counts: Record<ClaimState, number>;
  /** hand-outs read */
  total: number;
  parkedTotal: number;
  /** set when holders claim with different timeouts: a reclaim may park a live job or wait on a dead one; shortest first */
  parkingHazard: { holders: { holder: string; timeoutSeconds: number }[] } | null;
  /** more queues or hand-outs exist than one read looks at */
  truncated: boolean;
  /** keys that could not be read, each with why */
  errors: { stream: string; error: string }[];
  queuesRead: number;
  /** the queues' names, sorted: what the page can be filtered by */
  queueNames: string[];
  /** the one queue read, when the read was filtered by one */
  queue: string | null;
  /** which page of the list this is: rows `first` to `last` (from 1; 0 and 0 when none), page `number` of `count`, `size` a page */
  window: { number: number; count: number; size: number; first: number; last: number };
}

export interface ExpiringReservationsPage {
  now: number;
  /** why no row names a holder, in the words a page shows; left out where the layout records holders (`byHolder`) */
  holderAbsent?: string;
  /** why a row's reservedSince is null, in the words its cell shows; left out, the page says the message has no TTR (yii2's reason) */
  reservedSinceUnknown?: string;
  /** one per queue asked for (every queue of the connection, or those `among` names, when none was named); empty where the rows are grouped by holder */
  queues: QueueReservations[];
  /** the rows grouped by holder, where the layout records holders */
  byHolder?: ReservationsByHolder;
  /** where `among` chose the queues read: how many of how many, after the count of when (unix seconds); left out where every queue was read */
  readAmong?: { queues: number; of: number; countedAt: number };
}

/** Which reservations to read: one queue's, or those of the queues `among` names (every queue the layout knows without it), a page of them. */
export interface ReservationsScopeRead extends PageRequest {
  queue?: string;
  /** without `queue`: the only queues to look in (those a recent count found reserved jobs in), so that a connection of thousands of queues is not read whole per request */
  among?: readonly string[];
}

/** Reservations with their expiry (and their holder, where the layout records it). Throws QueueError for a queue the connection does not have. */
export interface ExpiringReservationsReader {
  read(scope: ReservationsScopeRead): Promise<ExpiringReservationsPage>;
}

/**
 * The repairs of a reservation whose holder the layout records: each one
 * atomic script that acts only while the hand-out and its job still say
 * what the operator saw (a worker settling or reclaiming it first wins,
 * and the outcome says what changed).
 */
export interface ClaimRepairs {
  /** hands a held job back now: ready again at the back of its level, attempts untouched */
  release(seen: SeenReservation): Promise<ClaimRepairOutcome>;
  /** fails a held job for good with `reason` as its error, as the driver's fail() would */
  fail(seen: SeenReservation, reason: string): Promise<ClaimRepairOutcome>;
  /** acknowledges and deletes a hand-out whose job is gone */
  cleanUp(seen: SeenTombstone): Promise<ClaimRepairOutcome>;
}

/** One delayed job as a layout-neutral timeline lists it. */
export interface DueJob extends SeenRow {
  id: string;
  name: string | null;
  attempts: number;
  priority: number | null;
  /** unix seconds */
  dueAt: number;
  note: string | null;
  /**
   * Parked while its holder's claim is live, where the layout records holders
   * (StaticPHP): running it now would run it twice at once, so the page
   * offers no Run now and says who holds it until when. Left out elsewhere.
   */
  heldBy?: { holder: string; until: number } | null;
  /** why the id is shown but neither linked nor acted on (a StaticPHP id past 2^53); left out when it can be */
  idNote?: string;
}

/**
 * The delayed timeline of lib/shapes/delayed-timeline.ts (buckets, overdue,
 * attendance) with rows any layout can fill, and the layout's sentence on
 * what moves a due job into the line.
 */
export interface DueTimeline extends Omit<DelayedTimeline, 'next'> {
  next: DueJob[];
  /** who moves due jobs, e.g. "every reserve (and, under redis-ng, every push) moves due jobs into the line" */
  dueMovedBy: string;
  /** where the layout's due jobs go, one and many ("its level", "their levels"); left out, the page says "the line" */
  movedInto?: { one: string; many: string };
  /** a job's id names it on the whole connection (StaticPHP's one counter), so its link needs no queue; left out, links name the queue */
  idsOfConnection?: boolean;
  /**
   * What Run now does at once, in the layout's words, where it puts the job in
   * line itself (StaticPHP: "It leaves the delayed jobs and joins the back of
   * its level…"): the page asks before running one. Left out where Run now
   * only makes the job due and the driver's next move places it.
   */
  runNowMoves?: string;
}

/** A queue's delayed jobs by when they come due. Throws QueueError for a queue the connection does not have. */
export interface DueTimelineReader {
  read(queue: string): Promise<DueTimeline>;
}

/** One index that holds a job: a short name, what it says in words, and the moment it names (a deadline) if any. */
export interface JobPlace {
  state: string;
  sentence: string;
  /** unix seconds; null when the place names no moment */
  at: number | null;
}

/**
 * A job's stored data, as the layout could decode it: a PHP serialize tree
 * (never instantiated), JSON, or the first bytes when neither can be read.
 */
export type JobData =
  | { kind: 'php'; parse: PhpParse }
  /** value undefined when the JSON could not be read whole; error says why */
  | { kind: 'json'; value: unknown; error: string | null }
  | { kind: 'hex'; hex: string; cut: boolean; format: string }
  | { kind: 'text'; text: string; cut: boolean };

/** What one job's stored message is: its parts, labelled, and its data decoded. */
export interface JobMessage {
  /** stored bytes */
  length: number;
  /** only the first bytes were read */
  cut: boolean;
  /** the message's parts in the order stored, each labelled, e.g. TTR 300, serializer PHP serialize() */
  parts: { label: string; value: string }[];
  /** what is wrong with the message as a whole; null when nothing is */
  problem: string | null;
  /** what a reader must know of the message though nothing is wrong with it, e.g. that its signature cannot be checked here */
  notice?: string;
  data: JobData;
  /** the part of the message Run a copy may edit, as stored text (a JSON-serialized yii2 message's body); absent where the layout's payload cannot be edited safely */
  editable?: string;
  /** where `editable` is absent, why Run a copy copies the message as stored, in the words its dialog shows */
  copiedAsStored?: string;
}

/**
 * How a job page offers one failed job's retry: QueueLens's own (what it
 * does, and whether it takes max attempts), or the command that retries it
 * where the application runs and why QueueLens does not.
 */
export type FailedJobRetry = { here: true; whatItDoes: string; maxAttempts: boolean } | { here: false; command: string; why: string };

/** Everything a page shows about one job, from one consistent read. */
export interface JobSnapshot {
  id: string;
  queue: string;
  now: number;
  /** placed, duplicate, orphan, dangling, unsearched, failed or gone */
  status: string;
  /** where it is or why it is nowhere, in words */
  statusText: string;
  places: JobPlace[];
  attempts: number;
  priority: { value: number; stored: boolean } | null;
  /** seconds, null when the message carries none; left out where the layout's jobs have no TTR of their own (marko's reservations last the connection's retry_after) */
  ttr?: number | null;
  name: string | null;
  /** null when the job's message is gone */
  message: JobMessage | null;
  /** set when the id is one of the layout's failed jobs (a layout that keeps them apart from the job, as marko and Horizon do): when it failed and how it is retried */
  failed?: {
    at: number;
    retry: FailedJobRetry;
    /** the exception its record keeps: message, newline, trace; null when the record is gone */ error: string | null;
  };
  /** set where the job is a hash of fields the layout's driver keeps (StaticPHP's j:{id}): every field as stored, and where the job is among the structures that hold ids */
  hash?: JobHash;
  /** set once the job is gone on a layout that hands out ids in order from one counter: the highest so far, so an id above it was never a job */
  lastId?: number;
  /** set where the job was found by searching its queue's structures (Laravel): where it is, for a repair to look there first (SeenJob.near) */
  near?: SeenPlace;
  /** why Remove is not offered on it, where the layout can tell now: it is too deep in a long list for a removal to reach (unremovableAt) */
  unremovable?: string;
}

/**
 * A job hash as a page shows it: each field's first DISPLAY_LIMIT_BYTES
 * with its stored length (the rest is downloaded, JobHashFields), and the
 * job's place read from the streams, the delayed and the failed sets.
 */
export interface JobHash {
  /** every hash field, in the order Redis returns them */
  fields: { name: string; value: DisplayValue }[];
  /** the payload re-indented, when it is JSON and small enough to show whole */
  payloadPretty: string | null;
  location: JobLocation;
}

/**
 * The whole stored bytes of one field of a job hash, for download, on a
 * layout whose jobs are hashes numbered by one counter across the
 * connection (so a job id is a whole number and names one job in every
 * queue). Null when the job or the field is gone.
 */
export interface JobHashFields {
  fieldBytes(id: number, field: string): Promise<Buffer | null>;
}

/**
 * What a read by id alone answers when the connection's queues each count
 * their own ids (yii2's channels) and not exactly one of them holds the id:
 * the queues that do, to pick from, or none.
 */
export interface JobIdAcrossQueues {
  id: string;
  /** the queues holding a job with this id, in the connection's order; empty when none does */
  holders: string[];
  /** every queue looked in */
  searched: string[];
}

export function isJobIdAcrossQueues(read: JobSnapshot | JobIdAcrossQueues): read is JobIdAcrossQueues {
  return 'holders' in read;
}

/** No job answers to the id: no queue holds it, or it is gone and not among the failed jobs either. Its page is a 404. */
export function isJobNotFound(read: JobSnapshot | JobIdAcrossQueues): boolean {
  return isJobIdAcrossQueues(read) ? read.holders.length === 0 : read.status === 'gone' && read.failed === undefined;
}

/**
 * One job by its id (decimal for yii2, the application's text for marko).
 * Without `queue`, on a connection whose queues count ids each on their own,
 * the id is looked up in each (one existence check per queue, pipelined):
 * the one holding it is read, else the holders are the answer. Throws
 * QueueError for a bad id or an unknown queue.
 */
export interface JobSnapshotReader {
  /** `near`: where a page saw the job in `queue`, where a layout that searches its structures for a job (Laravel) looks first */
  read(id: string, queue?: string, near?: SeenPlace): Promise<JobSnapshot | JobIdAcrossQueues>;
}

/**
 * What a page knew of a job it asks a repair to change: `bytes`, the job as
 * a Find step just read it (FoundMatch.bytes), which a layout that keeps a
 * job as one value removes as they are, not looking the job up by its id
 * again; `near`, where the page saw it in its queue, where a layout that
 * searches its structures for a job looks first (a job deeper than its
 * look-up's bound).
 */
export interface SeenJob {
  bytes?: Buffer;
  near?: SeenPlace;
}

/**
 * The repairs the line, reservations, delayed and job pages offer on a
 * layout whose driver QueueLens does not run: each one atomic script that
 * re-checks first; `false` when the condition was already gone (a worker or
 * another operator got there first). Throw QueueError for a queue the
 * connection does not have, or a change the script refused. A repair that
 * is not safe while the layout's workers run is Absent, saying why.
 */
export interface LineRepairs {
  /** deletes the job wherever it is, as the driver's own remove does; with `trash` (where the layout keeps one) it is moved there whole instead; `seen`: what the page knew of it (SeenJob) */
  remove: ((queue: string, id: string, trash?: TrashWrite, seen?: SeenJob) => Promise<boolean>) | Absent;
  /** puts a reservation whose time ran out back in line where the driver's mover would; refuses a live one */
  releaseExpired: ((queue: string, id: string, seen?: SeenJob) => Promise<boolean>) | Absent;
  /** ends a live reservation now, so the driver's next move puts the job back in line: if its worker is still running it, it runs twice */
  reclaim: ((queue: string, id: string, seen?: SeenJob) => Promise<boolean>) | Absent;
  /** makes a delayed job due now (the driver's next move puts it in line), or moves it into line itself; `said` is what happened where the layout can tell more (the level it joined) */
  runDelayedNow: ((queue: string, id: string, seen?: SeenJob) => Promise<boolean | RepairSaid>) | Absent;
  /** moves due delayed jobs into the line, a bounded batch per call; `gone` counts due ids whose job was deleted, only taken off the delayed set (where the layout tells them apart) */
  moveDueJobs: ((queue: string) => Promise<{ moved: number; stillDue: number; gone?: number }>) | Absent;
}

/** A repair's outcome with what it did in words, where the layout's script says more than changed or not. */
export interface RepairSaid {
  changed: boolean;
  said: string;
}

export type LineRepairName = keyof LineRepairs;

/** Which repairs a page may offer: null for one it may, else why not, in the words the page shows. */
export type LineRepairOffer = Record<LineRepairName, string | null>;

/**
 * The failed jobs page's reads, the same for every layout that keeps failed
 * jobs: newest first, paged through the whole set, and searched a bounded
 * chunk per call so that the page shows progress.
 */
export interface FailedPagesReader {
  /** `limit` rows from `offset`, newest first, with the set's size */
  page(offset: number, limit: number): Promise<FailedPage>;
  /** looks through at most `scanLimit` failed jobs from `offset`, newest first, for those matching `filter`; continue from `nextOffset` until `done` */
  search(filter: FailedFilter, chunk: { offset: number; scanLimit: number }): Promise<FailedSearchChunk>;
  /** the queue names the filter offers, sorted, at most `limit` */
  queueNames(limit: number): Promise<string[]>;
}

/** A Redis TYPE reply: `none` when the key does not exist. */
export type KeyType = 'string' | 'list' | 'set' | 'zset' | 'hash' | 'stream' | 'none' | (string & {});

/** One key of a layout's key table, read live. */
export interface KeyRow {
  key: string;
  /** what the layout's driver keeps in it, from the layout's spec */
  holds: string;
  /** the queue (yii2: channel) it belongs to; null for a key every queue shares */
  queue: string | null;
  expectedType: KeyType;
  type: KeyType;
  /** the key exists with a type the driver would not write there */
  mismatch: boolean;
  /** LLEN, ZCARD, HLEN, SCARD, XLEN or STRLEN by the key's actual type; null when it does not exist */
  size: number | null;
  /** MEMORY USAGE in bytes (sampled); null when it does not exist */
  memoryBytes: number | null;
  /** seconds to live; null when the key has no TTL or does not exist */
  ttlSeconds: number | null;
  /** the driver writes this key with an expiry (yii2's moving_lock); every other key it never gives one */
  expires: boolean;
  /** the key's TTL is not what the driver leaves: a TTL where it sets none, or none on a key it always sets one */
  ttlWrong: boolean;
  /** why part of this key could not be read */
  error?: string;
  /** a stream read by a consumer group (StaticPHP's): the group's state, null when no reserve has created it yet; left out for any other key */
  group?: ConsumerGroup | null;
}

/** A stream's consumer group as the keys page shows it. */
export interface ConsumerGroup {
  /** entries delivered to a worker and not acknowledged */
  pending: number;
  lastDeliveredId: string;
}

/** A layout's keys as the keys page shows them. */
export interface KeyTable {
  /** what the table covers, e.g. "channel queue" or "prefix marko:" */
  scope: string;
  /** which keys the table lists and which the census counts instead */
  description: string;
  keys: KeyRow[];
  /** what the table left out (queues beyond the first ones), in words; null when nothing */
  cut: string | null;
  mismatches: number;
  ttlWrong: number;
  /** what the census walks and counts, in words */
  censusScope: string;
  /** the consumer group the layout's workers read its streams with (StaticPHP's); the page shows each stream's group in a column of its own */
  consumerGroup?: string;
}

/** A key the census names, with its type (the text of the key; names that are not UTF-8 show `\xNN`). */
export interface NamedKey {
  key: string;
  type: KeyType;
  /** the name's bytes in base64url when it is not UTF-8, so that the key can still be opened; null when the text is the name */
  raw?: string | null;
}

/**
 * One step of a layout's census: one bounded SCAN step over one of its
 * patterns, the keys it returned counted by what they are to the layout.
 */
export interface LayoutCensusStep {
  /** what to send next; '0' when the census is complete */
  cursor: string;
  done: boolean;
  /** keys this step returned */
  keys: number;
  /** keys that belong to the layout, by what they are (e.g. "Job hashes": 12), in the order a page shows them */
  tallies: Record<string, number>;
  /** keys named like the layout's but of another type (the first of them) */
  wrongType: NamedKey[];
  /** keys under the patterns that the driver never creates */
  strangerCount: number;
  /** the first of them */
  strangers: NamedKey[];
  /** DBSIZE: every key of the database, for a rough progress figure */
  dbSize: number;
  /** how many SCAN walks of the database the census makes (one per pattern) */
  walks: number;
}

/** A layout's keys table and its census, for the keys page. */
export interface KeyTableReader {
  read(): Promise<KeyTable>;
  /**
   * one bounded census step from `cursor` ('0' to start). Throws QueueError for a cursor it did not give.
   * Keys under `ownPrefix` (QUEUELENS_PREFIX: the audit log, the trash…) are counted as QueueLens's own, never as strangers.
   */
  censusStep(cursor: string, ownPrefix?: string): Promise<LayoutCensusStep>;
  /** one bounded page of a key of the layout (under its prefix or a channel's name); throws QueueError for any other key */
  contents(key: string | Buffer, cursor: string): Promise<KeyContents>;
}

/**
 * Find: jobs by id, name, payload or error in every state the layout has,
 * one bounded step at a time (lib/layouts/find-steps.ts). The caller drives
 * the steps with the cursor each returns, so a search nobody asks on for
 * costs nothing more.
 */
export interface JobFinder {
  /** the states the layout's jobs can be found in */
  readonly states: readonly FindState[];
  /** the time each state's index records, as a page names it ("when it failed"); a ranged search looks only in these states */
  readonly times: FindTimes;
  /**
   * one step from `cursor` (null: the first); throws QueueError (invalidRequest) for a cursor it cannot read.
   * `taken`: how many of the step before's matches have been taken out of where they were found since (lib/layouts/find-steps.ts findStep);
   * `options`: the matches' bytes for a removal, and the counts the caller holds for "about M" (FindStepOptions)
   */
  step(query: FindQuery, cursor: string | null, taken?: number, options?: FindStepOptions): Promise<FoundStep>;
  /**
   * Which of the jobs a search listed (all failed, or all live: ready,
   * delayed or reserved) still hold what `query` looks for, read as the
   * search read them, before an action on them: a failed job retried and
   * failed again with another error is no longer a match. Where they are
   * is the action's own script's re-check.
   */
  stillMatching(query: FindQuery, of: 'failed' | 'live', ids: readonly string[]): Promise<Set<string>>;
}
