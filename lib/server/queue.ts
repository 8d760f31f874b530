import 'server-only';
import { cookies, headers } from 'next/headers';
import type { Access } from '@/lib/auth/credentials';
import { loadConnections, type Connection } from '@/lib/dashboard/connections';
import { LARGE_READ_RETRY_AFTER_SECONDS, LargeReadSlots, largeReadLimitsFromEnv } from '@/lib/dashboard/large-reads';
import { latestTicksOf } from '@/lib/dashboard/latest-tick';
import { SharedReads, type SharedReadKey } from '@/lib/dashboard/shared-reads';
import { isAbsent, type Absent, type CapabilityName, type QueueLayout } from '@/lib/layouts/adapter';
import { absentCapabilityOf, lineRepairOfferOf } from '@/lib/layouts/capabilities';
import { lineRepairOffer } from '@/lib/layouts/line-repairs';
import { layoutOver } from '@/lib/layouts/open-layout';
import type { LineRepairOffer } from '@/lib/layouts/pages';
import { parsePollInterval, POLL_INTERVAL_HEADER } from '@/lib/queries/poll-interval';
import { CONNECTION_COOKIE, CONNECTION_HEADER } from '@/lib/queries/tab-connection';
import { QueueError } from '@/lib/redis/errors';
import { RedisConnection } from '@/lib/redis/connection';
import { ARRIVAL_HEADER, waitedMs } from '@/lib/serving/arrival';
import { authenticate, requestClientAddress } from './access';
import { logEvent } from './log';

/** What a layout cannot do, thrown through a shared read to the request that asked. */
class LayoutLacks extends Error {}

/** A large read refused because its session, or the process, has all it may have under way. */
class TooManyLargeReads extends Error {}

/**
 * A read's value, or why there is none; `status` is the HTTP status an API
 * route answers a refusal with, and `retryAfterSeconds` when to ask again.
 */
export type ReadResult<T> = { ok: true; data: T } | { ok: false; error: string; unreachable?: boolean; status?: number; retryAfterSeconds?: number };

export type ConnectionChoice = { ok: true; connection: Connection } | { ok: false; status: 400 | 409 | 500; error: string };

const UNKNOWN_ERROR = 'Something went wrong while reading the queues; the server log has the details.';

// Kept on globalThis because `next dev` re-evaluates changed modules: a
// module-level variable would open new Redis clients on every edit and leak
// the old ones.
const cache = globalThis as typeof globalThis & {
  queuelensConnections?: Connection[];
  queuelensRedis?: Map<string, Promise<RedisConnection>>;
  queuelensLargeReadRedis?: Map<string, Promise<RedisConnection>>;
  queuelensLargeReadSlots?: LargeReadSlots;
  queuelensSharedReads?: SharedReads;
};

/**
 * How much of its tab's poll interval a request accepts as the age of a
 * snapshot. A tab polling every `n` ms is answered with data read at most
 * `0.75 n` before the answer left, never a whole interval. Any number of tabs
 * polling every `n` then cost at most one read per `0.75 n`, where one tab
 * costs one per `n`: 50 tabs at most 1.33 times one. Half an interval would
 * make that 2 times; the whole interval would let a tab show the figures its
 * previous poll already showed.
 */
const SNAPSHOT_SHARE_OF_INTERVAL = 0.75;
/** The oldest snapshot kept, ms: what a tab on the slowest interval the header offers (10 s) accepts. */
const SNAPSHOT_KEEP_MS = 7_500;

function sharedReads(): SharedReads {
  return (cache.queuelensSharedReads ??= new SharedReads({ keepMs: SNAPSHOT_KEEP_MS }));
}

/**
 * How old a snapshot the request accepts: SNAPSHOT_SHARE_OF_INTERVAL of the
 * interval its tab polls at, or any read that started after the request
 * arrived (lib/serving/arrival.ts), whichever is older. A request that names
 * no interval (a page load, a script) shares only a read under way or one
 * that started after it arrived: someone who loads a page right after
 * changing Redis by other means (a PHP worker, redis-cli) sees it.
 */
async function acceptedSnapshotAgeMs(): Promise<number> {
  const list = await headers();
  const interval = parsePollInterval(list.get(POLL_INTERVAL_HEADER));
  return Math.max(typeof interval === 'number' ? interval * SNAPSHOT_SHARE_OF_INTERVAL : 0, waitedMs(list.get(ARRIVAL_HEADER)));
}

/**
 * `load()`, shared with the other requests for `key` on `connection` (as
 * readRedis' `shared` is): for a read of a connection other than the one
 * the request chose, which readRedis does not make (lib/server/job-elsewhere.ts).
 */
export async function sharedReadOn<T>(connection: Connection, key: SharedReadKey, load: () => Promise<T>): Promise<T> {
  return sharedReads().read(connection.name, key, await acceptedSnapshotAgeMs(), load);
}

/**
 * After a change made through the dashboard on `connection`: drops every
 * snapshot of it and reads its ticks again (the overview's figures,
 * lib/dashboard/latest-tick.ts): those of the `touched` queues and the
 * failed count, or of every queue when `touched` is null, waiting for them,
 * so that a page loaded once the change has answered shows what it did.
 */
export async function refreshAfterChange(connection: Connection, touched: readonly string[] | null): Promise<void> {
  sharedReads().forget(connection.name);
  await Promise.all(latestTicksOf(connection.name).map((tick) => (touched === null ? tick.refresh() : tick.refreshOnly(touched))));
}

/** The configured connections, read once; a broken file throws (the server refuses to start on it). */
export function connections(): Connection[] {
  return (cache.queuelensConnections ??= loadConnections());
}

/**
 * The connection a request is for: the one the tab names (header or action
 * argument), else the switcher's cookie, else the first configured. A tab
 * naming another connection than the cookie was switched behind its back,
 * and must reload before it reads or changes anything.
 */
export async function chooseConnection(requested?: string): Promise<ConnectionChoice> {
  let all: Connection[];
  try {
    all = connections();
  } catch (error) {
    logEvent('error', 'the connections file cannot be read', { error });
    return { ok: false, status: 500, error: 'The connections file cannot be read; the server log says why.' };
  }
  const [headerList, cookieJar] = await Promise.all([headers(), cookies()]);
  const named = requested ?? headerList.get(CONNECTION_HEADER) ?? undefined;
  const switched = all.find((connection) => connection.name === cookieJar.get(CONNECTION_COOKIE)?.value);
  if (named === undefined) return { ok: true, connection: switched ?? all[0]! };
  const connection = all.find((candidate) => candidate.name === named);
  if (!connection) return { ok: false, status: 400, error: `There is no connection named "${named.slice(0, 40)}".` };
  if (switched && switched.name !== connection.name) {
    return {
      ok: false,
      status: 409,
      error: `This tab shows ${connection.label}, but QueueLens was switched to ${switched.label} in another tab: reload the page.`,
    };
  }
  return { ok: true, connection };
}

/**
 * The Redis connection of `connection`, made on first use and shared by every
 * request. A failed connect is not kept, so the next request tries again and
 * a Redis that comes back is picked up without a restart; once connected,
 * ioredis reconnects by itself.
 */
export function getRedis(connection: Connection): Promise<RedisConnection> {
  return openRedis((cache.queuelensRedis ??= new Map()), connection);
}

/**
 * The second Redis connection of `connection`, for large reads only (see
 * readLargeValues), made on first use as getRedis's is. Redis answers one
 * client's commands in order: on the client the pages poll through, a 20 MB
 * reply held every poll behind it until it had arrived whole, and twenty of
 * them made other users' polls time out.
 */
function getLargeReadRedis(connection: Connection): Promise<RedisConnection> {
  return openRedis((cache.queuelensLargeReadRedis ??= new Map()), connection);
}

function openRedis(queues: Map<string, Promise<RedisConnection>>, connection: Connection): Promise<RedisConnection> {
  const open = queues.get(connection.name);
  if (open) return open;
  const { settings } = connection;
  // A page answers within a few connect timeouts even when Redis hangs with the connection open.
  const opening = RedisConnection.connect(settings, { commandTimeoutMs: settings.timeout * 2500 });
  queues.set(connection.name, opening);
  opening.catch(() => {
    if (queues.get(connection.name) === opening) queues.delete(connection.name);
  });
  return opening;
}

/** Each open Redis connection's layout adapter, built once: a page asks for it twice (whether it has a capability, then the read). */
const layouts = new WeakMap<RedisConnection, QueueLayout>();

/**
 * The queues of `connection` as its layout lays them out, over the shared
 * Redis connection of getRedis (an adapter holds no connection of its own).
 */
export async function getLayout(connection: Connection): Promise<QueueLayout> {
  return layoutOf(await getRedis(connection), connection);
}

function layoutOf(redis: RedisConnection, connection: Connection): QueueLayout {
  let layout = layouts.get(redis);
  if (layout === undefined) {
    layout = layoutOver(redis, connection.layout);
    layouts.set(redis, layout);
  }
  return layout;
}

/** Closes every open connection, the large reads' too, for a graceful shutdown. */
export async function closeQueues(): Promise<void> {
  const open = [cache.queuelensRedis, cache.queuelensLargeReadRedis].flatMap((queues) => {
    const all = [...(queues?.values() ?? [])];
    queues?.clear();
    return all;
  });
  await Promise.allSettled(open.map(async (opening) => (await opening).close()));
}

/**
 * Runs a read for whoever may view, on the connection the request is for, as
 * a value. A QueueError's message is written for operators and is passed on
 * (with status 400 when the request itself was wrong);
 * anything else may carry internals, so it is logged here and reported
 * generically.
 *
 * A read given a `shared` key (what it reads and with which parameters) is
 * shared (lib/dashboard/shared-reads.ts) with the other requests for that key
 * on the same connection: the one under way, or a snapshot as fresh as the
 * request's tab asks. Who asks is checked first, on every request; what is
 * shared never depends on who asked (a read is given only the connection),
 * so a viewer and an operator may be answered from one read, and two
 * connections never are.
 */
export function readRedis<T>(read: (redis: RedisConnection, connection: Connection) => Promise<T>, shared?: SharedReadKey): Promise<ReadResult<T>> {
  return readConnection(async (connection) => read(await getRedis(connection), connection), shared);
}

/** What a layout has as `name`, when it has it. */
export type Capability<Name extends CapabilityName> = Exclude<QueueLayout[Name], Absent>;

/** `layout`'s `name`: what it has, or the Absent that says why it has none. */
export function capabilityOf<Name extends CapabilityName>(layout: QueueLayout, name: Name): Capability<Name> | Absent {
  // Read through the capabilities' common shape: indexing QueueLayout by a generic name makes a union too complex for tsc.
  const capabilities: Readonly<Record<CapabilityName, object>> = layout;
  return capabilities[name] as Capability<Name> | Absent;
}

/**
 * readRedis for a read that needs the connection's layout to have `name`; a
 * layout without it answers with the sentence that says why (status 501:
 * the request was fine, this layout cannot do it).
 */
export function readCapability<Name extends CapabilityName, T>(
  name: Name,
  read: (capability: Capability<Name>, connection: Connection) => Promise<T>,
  shared?: SharedReadKey,
): Promise<ReadResult<T>> {
  return readConnection(async (connection) => {
    const capability = capabilityOf(await getLayout(connection), name);
    if (isAbsent(capability)) throw new LayoutLacks(capability.absent);
    return read(capability as Capability<Name>, connection);
  }, shared);
}

/**
 * The sentence a page shows instead of itself when the connection its
 * request is for has a layout without `name`; null when it has it (or the
 * request names no connection: the read then says why). Known from the
 * connection's settings, without Redis: a connection that cannot be reached
 * gets its own layout's page, which says so.
 */
export async function absentCapability(name: CapabilityName): Promise<string | null> {
  const choice = await chooseConnection();
  return choice.ok ? absentCapabilityOf(choice.connection.layout, name) : null;
}

/**
 * Which line repairs (lib/layouts/pages.ts LineRepairs) the pages may offer
 * on the connection the request is for: each null, or the sentence a page
 * shows instead; known without Redis, as absentCapability is (every one when
 * the request names no connection).
 */
export async function offeredLineRepairs(): Promise<LineRepairOffer> {
  const choice = await chooseConnection();
  return choice.ok ? lineRepairOfferOf(choice.connection.layout) : lineRepairOffer({});
}

/** readRedis for a read that asks the connection's layout what it has. */
export function readLayout<T>(read: (layout: QueueLayout, connection: Connection) => Promise<T>, shared?: SharedReadKey): Promise<ReadResult<T>> {
  return readConnection(async (connection) => read(await getLayout(connection), connection), shared);
}

/** A large read's value and its place among the large reads under way, which whoever sends the value on gives up once it is sent. */
export interface HeldRead<T> {
  value: T;
  release: () => void;
}

function largeReadSlots(): LargeReadSlots {
  return (cache.queuelensLargeReadSlots ??= new LargeReadSlots(largeReadLimitsFromEnv()));
}

/** Whose share of the large reads a request spends: its session, or a bearer client by role and address. */
async function largeReadHolder(access: Access): Promise<string> {
  return access.sessionId !== undefined ? `session ${access.sessionId}` : `bearer ${access.role} ${await requestClientAddress()}`;
}

/**
 * readCapability for a read that takes whole stored values, whose replies
 * have no bound on their size: run on the connection's large-read client
 * (getLargeReadRedis), never the one the pages poll through, and only while
 * the session and the process are under their limits of large reads at once
 * (lib/dashboard/large-reads.ts); past either, refused with 429 and when to
 * try again. The value comes with its place, held until `release`: a value
 * streamed out holds it until it has been sent. Never shared: each read is
 * its asker's.
 */
export function readLargeValues<Name extends CapabilityName, T>(
  name: Name,
  read: (capability: Capability<Name>, connection: Connection) => Promise<T>,
): Promise<ReadResult<HeldRead<T>>> {
  return readConnection(async (connection, access) => {
    const slots = largeReadSlots();
    const slot = slots.take(await largeReadHolder(access));
    if ('refused' in slot) throw new TooManyLargeReads(slots.refusal(slot.refused));
    try {
      const capability = capabilityOf(layoutOf(await getLargeReadRedis(connection), connection), name);
      if (isAbsent(capability)) throw new LayoutLacks(capability.absent);
      return { value: await read(capability as Capability<Name>, connection), release: slot.release };
    } catch (error) {
      slot.release();
      throw error;
    }
  });
}

/** readLargeValues for a read whose answer is small once read (a page of cut values): its place is given up as soon as it is read. */
export async function readLargeValuesOnce<Name extends CapabilityName, T>(
  name: Name,
  read: (capability: Capability<Name>, connection: Connection) => Promise<T>,
): Promise<ReadResult<T>> {
  const result = await readLargeValues(name, read);
  if (!result.ok) return result;
  result.data.release();
  return { ok: true, data: result.data.value };
}

/** The HTTP status of a QueueError that is the request's fault rather than Redis's. */
function errorStatus(error: QueueError): { status?: number } {
  if (error.notFound) return { status: 404 };
  return error.invalidRequest ? { status: 400 } : {};
}

async function readConnection<T>(read: (connection: Connection, access: Access) => Promise<T>, shared?: SharedReadKey): Promise<ReadResult<T>> {
  const allowed = await authenticate();
  if (!allowed.ok) return allowed;
  const choice = await chooseConnection();
  if (!choice.ok) return choice;
  const { connection } = choice;
  const readNow = () => read(connection, allowed.access);
  try {
    return { ok: true, data: await (shared === undefined ? readNow() : sharedReadOn(connection, shared, readNow)) };
  } catch (error) {
    if (error instanceof LayoutLacks) return { ok: false, error: error.message, status: 501 };
    if (error instanceof TooManyLargeReads) return { ok: false, error: error.message, status: 429, retryAfterSeconds: LARGE_READ_RETRY_AFTER_SECONDS };
    if (error instanceof QueueError) return { ok: false, error: error.message, unreachable: error.unreachable, ...errorStatus(error) };
    logEvent('error', 'reading the queues failed unexpectedly', { error });
    return { ok: false, error: UNKNOWN_ERROR };
  }
}
