import 'server-only';
import { z } from 'zod';
import type { Access } from '@/lib/auth/credentials';
import type { AuditedAction } from '@/lib/dashboard/audit-entry';
import type { Role } from '@/lib/auth/session-token';
import type { Connection } from '@/lib/dashboard/connections';
import { QueueError } from '@/lib/redis/errors';
import type { RedisConnection } from '@/lib/redis/connection';
import { authenticate, changeRefusal, isSameOriginRequest } from './access';
import { recordMutation } from './audit';
import { logEvent } from './log';
import { keptOverviewOf, queuesFailingRecentlyIn, type EveryQueueOverview } from '@/lib/dashboard/every-queue-overview';
import { isAbsent, type CapabilityName } from '@/lib/layouts/adapter';
import { capabilityOf, chooseConnection, getLayout, refreshAfterChange, getRedis, type Capability } from './queue';

/** What every server action returns: a value, never a thrown error or a stack trace. */
export type ActionResult<T extends object> = ({ ok: true } & T) | { ok: false; error: string };

/**
 * A server action as the browser calls it: its input, and the connection the
 * tab shows (see lib/queries/connection.ts), so that an action never lands on
 * a connection the operator is not looking at.
 */
export type ServerAction<Input, T extends object> = (input: Input, connection?: string) => Promise<ActionResult<T>>;

/** How a mutation reads in the audit log: its name, what it was aimed at, and what came of it. */
export interface AuditDescription<Input, T> {
  action: AuditedAction;
  target: (input: Input) => string;
  outcome: (result: T) => string;
}

/**
 * The queues a change touched, by name: from its input, from its outcome
 * when it did not fail (null when it did: it may have done part of its
 * work), or from the overview kept before it (`kept`, null before any
 * read). After the change only their figures are read again before the
 * answer leaves (refreshAfterChange); null reads every queue's, which is
 * what an action that cannot say gets.
 */
export type TouchedQueues<Input, T> = (input: Input, outcome: T | null, kept: EveryQueueOverview | null) => readonly string[] | null;

/**
 * What a forget of failed jobs touched: the queues the kept overview counts
 * recent failures in. Forgetting takes failures away and adds no job, so a
 * queue with none to lose keeps every figure (its failed-recently count,
 * its failing mark); the failed count is read again anyway.
 */
export const queuesFailingRecently: TouchedQueues<unknown, unknown> = (_input, _outcome, kept) => (kept === null ? null : queuesFailingRecentlyIn(kept));

/** What an action that cannot say which queues it touched refreshes: every queue. */
const EVERY_QUEUE = () => null;

/** A change aimed at one queue its input names (a job on a queue, a reservation, a push). */
export const inputQueue = ({ queue }: { queue: string }): readonly string[] => [queue];

const UNEXPECTED = 'The action failed unexpectedly; the server log has the details.';
const FOREIGN_ORIGIN = 'The request did not come from this dashboard’s pages, so it was refused.';

function describeInvalidInput(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'The request was not understood.';
  const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
  return `Invalid input, ${where}${issue.message}`;
}

type Prepared<Input> =
  { ok: true; input: Input; access: Access; connection: Connection } | { ok: false; error: string; access?: Access; connection?: Connection };

/**
 * Everything an action checks before it touches Redis, in this order: the
 * request came from our own pages, whoever sent it may do this (re-checked
 * here, whatever the proxy let through), the connection is the tab's and
 * allows it, and the input parses (an action is a public endpoint and gets
 * whatever a client sends).
 */
async function prepare<Schema extends z.ZodType>(needed: Role, schema: Schema, input: unknown, requested: unknown): Promise<Prepared<z.output<Schema>>> {
  if (!(await isSameOriginRequest())) return { ok: false, error: FOREIGN_ORIGIN };
  const allowed = await authenticate();
  if (!allowed.ok) return { ok: false, error: allowed.error };
  if (requested !== undefined && typeof requested !== 'string') return { ok: false, error: 'The request was not understood.', access: allowed.access };
  const choice = await chooseConnection(requested);
  if (!choice.ok) return { ok: false, error: choice.error, access: allowed.access };
  const { connection } = choice;
  const refusal = needed === 'operator' ? changeRefusal(allowed.access, connection) : null;
  if (refusal !== null) return { ok: false, error: refusal, access: allowed.access, connection };
  const parsed = schema.safeParse(input);
  if (!parsed.success) return { ok: false, error: describeInvalidInput(parsed.error), access: allowed.access, connection };
  return { ok: true, input: parsed.data, access: allowed.access, connection };
}

/** Runs `body` with the connection's layout's `name`; `redis` is the connection, where the audit log is kept. */
async function run<Name extends CapabilityName, Input, T extends object>(
  name: Name,
  body: (input: Input, capability: Capability<Name>, connection: Connection, access: Access) => Promise<T>,
  input: Input,
  connection: Connection,
  access: Access,
): Promise<{ ok: true; value: T; redis: RedisConnection } | { ok: false; error: string; redis?: RedisConnection }> {
  let redis: RedisConnection | undefined;
  try {
    const layout = await getLayout(connection);
    redis = layout.connection;
    const capability = capabilityOf(layout, name);
    if (isAbsent(capability)) return { ok: false, error: `${capability.absent}.`, redis };
    return { ok: true, value: await body(input, capability as Capability<Name>, connection, access), redis };
  } catch (error) {
    if (error instanceof QueueError) return { ok: false, error: error.message, redis };
    logEvent('error', 'a server action failed unexpectedly', { error });
    return { ok: false, error: UNEXPECTED, redis };
  }
}

/**
 * A server action that changes queue state with the connection's layout's
 * `name` (refused, saying why, on a layout without it): operators only, on a connection
 * that is not read-only, and every attempt by a signed-in user, done,
 * refused or failed, goes to the audit log. A QueueError's message is written
 * for operators and is passed on; anything else is logged and reported
 * generically. Before it answers, the figures of the queues it `touched`
 * (every queue's, when it does not say) are read again, so a page loaded
 * after the answer shows the change.
 */
export function queueAction<Name extends CapabilityName, Schema extends z.ZodType, T extends object>(
  name: Name,
  schema: Schema,
  /** `connection` is the one the action runs on, for what QueueLens keeps per connection; `access` is who runs it (what a trash records) */
  body: (input: z.output<Schema>, capability: Capability<Name>, connection: Connection, access: Access) => Promise<T>,
  audit: AuditDescription<z.output<Schema>, T>,
  touched: TouchedQueues<z.output<Schema>, T> = EVERY_QUEUE,
): ServerAction<z.input<Schema>, T> {
  return async (input, requested) => {
    const prepared = await prepare('operator', schema, input, requested);
    if (!prepared.ok) {
      if (prepared.access && prepared.connection) {
        const redis = await getRedis(prepared.connection).catch(() => undefined);
        if (redis)
          await recordMutation(redis, { ...entryOf(prepared.access, prepared.connection, audit.action, '—'), result: 'refused', detail: prepared.error });
      }
      return { ok: false, error: prepared.error };
    }
    const { access, connection } = prepared;
    const outcome = await run(name, body, prepared.input, connection, access);
    // Even a failed change may have done part of its work (a bulk step): `touched` is told so.
    await refreshAfterChange(connection, touched(prepared.input, outcome.ok ? outcome.value : null, keptOverviewOf(connection.name)));
    const entry = entryOf(access, connection, audit.action, audit.target(prepared.input));
    if (outcome.redis) {
      await recordMutation(
        outcome.redis,
        outcome.ok ? { ...entry, result: 'ok', detail: audit.outcome(outcome.value) } : { ...entry, result: 'failed', detail: outcome.error },
      );
    }
    return outcome.ok ? { ok: true, ...outcome.value } : { ok: false, error: outcome.error };
  };
}

/** Ids for an audit target: the first few and how many more, so a bulk step stays one short line. */
export function describeJobs(ids: readonly (number | string)[]): string {
  const shown = ids.slice(0, 5).join(', ');
  return ids.length > 5 ? `jobs ${shown} (+${ids.length - 5} more)` : `job${ids.length === 1 ? '' : 's'} ${shown}`;
}

function entryOf(access: Access, connection: Connection, action: AuditedAction, target: string) {
  return { who: access.who, role: access.role, connection: connection.name, action, target };
}

/** A server action that only reads (a doctor check step, a count for a confirmation): anyone who may view. */
export function queueReadAction<Name extends CapabilityName, Schema extends z.ZodType, T extends object>(
  name: Name,
  schema: Schema,
  body: (input: z.output<Schema>, capability: Capability<Name>, connection: Connection) => Promise<T>,
): ServerAction<z.input<Schema>, T> {
  return async (input, requested) => {
    const prepared = await prepare('viewer', schema, input, requested);
    if (!prepared.ok) return { ok: false, error: prepared.error };
    const outcome = await run(name, body, prepared.input, prepared.connection, prepared.access);
    return outcome.ok ? { ok: true, ...outcome.value } : { ok: false, error: outcome.error };
  };
}

/**
 * A server action for operators that reads the connection's Redis itself,
 * below any layout (the Connect page's detection walk): refused to viewers
 * and on read-only connections as a change would be, because it walks the
 * whole keyspace and shows other applications' key names; not audited, as
 * it changes nothing.
 */
export function operatorReadAction<Schema extends z.ZodType, T extends object>(
  schema: Schema,
  body: (input: z.output<Schema>, redis: RedisConnection, connection: Connection) => Promise<T>,
): ServerAction<z.input<Schema>, T> {
  return async (input, requested) => {
    const prepared = await prepare('operator', schema, input, requested);
    if (!prepared.ok) return { ok: false, error: prepared.error };
    try {
      return { ok: true, ...(await body(prepared.input, await getRedis(prepared.connection), prepared.connection)) };
    } catch (error) {
      if (error instanceof QueueError) return { ok: false, error: error.message };
      logEvent('error', 'a server action failed unexpectedly', { error });
      return { ok: false, error: UNEXPECTED };
    }
  };
}
