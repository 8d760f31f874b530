import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis/connection';
import { execPipeline } from '../redis/pipeline';
import type { LogLevel } from '../log-event';
import type { Connection } from './connections';
import { alertKeys, dashboardKeys, type AlertKeys } from './keys';
import { holdLease } from './lease';
import type { QueueMark } from './marks';
import { withConnection } from '../routes';
import {
  dueNotices,
  markField,
  noticeBody,
  noticeUrl,
  parseMarkField,
  webhookCovers,
  type DueNotice,
  type MarkKind,
  type Notice,
  type NoticeRules,
  type NoticeState,
  type NoticeText,
  type SentState,
  type Webhook,
} from './notices';

/** The notices the alerts page lists, newest first: the stream is trimmed to about this many (whole nodes, so up to 100 more). */
export const RECENT_NOTICES_CAP = 200;

/** A webhook that has not answered within this long is given up on for this notice. */
const WEBHOOK_TIMEOUT_MS = 5_000;

/** What one tick's judgement gives the sender: each queue's marks (or the error that left it unjudged) and the Redis server's clock. */
export interface JudgedQueues {
  queues: readonly { queue: string; marks: readonly QueueMark[]; error?: string }[];
  /** unix seconds, the Redis server's clock */
  now: number;
}

export interface AlertSenderOptions {
  connection: Pick<Connection, 'name'> & { notify: NoticeRules };
  /** QueueLens's own prefix, where the lease and what was sent are kept */
  dashboardPrefix: string;
  /** how long the lease lasts unrenewed: a few ticks, so a dead instance's sending is taken over within them */
  leaseMs: number;
  /** a mark's words and the page that deals with it, as the overview shows them */
  describe: (queue: string, mark: QueueMark, now: number) => NoticeText;
  /** QUEUELENS_PUBLIC_URL, for absolute links */
  publicUrl: string | null;
  log: (level: LogLevel, message: string, fields?: Record<string, unknown>) => void;
  /** the instance's token; random by default */
  token?: string;
}

export type SenderTick = { holds: false } | { holds: true; sent: Notice[] };

/**
 * Sends a connection's marks to its webhooks when they start and clear,
 * from the marks the sampler's tick has already judged (no read of its
 * own per queue). Among the dashboard instances on one Redis only the
 * holder of the connection's lease sends; what it sent is kept in Redis, so
 * the instance that takes over when the holder dies goes on from there
 * instead of sending again. A webhook that fails is logged and recorded in
 * the recent notices, not retried: a notice is sent at most once.
 */
export class AlertSender {
  private readonly keys: AlertKeys;
  private readonly token: string;

  constructor(private readonly options: AlertSenderOptions) {
    this.keys = alertKeys(dashboardKeys(options.dashboardPrefix), options.connection.name);
    this.token = options.token ?? randomUUID();
  }

  /** Holds (or renews) the lease, and when it holds it sends what started or cleared since the last notices. */
  async tick(connection: RedisConnection, judged: JudgedQueues): Promise<SenderTick> {
    const { notify } = this.options.connection;
    const holds = await connection.attempt(() => holdLease.run(connection.redis, { lock: this.keys.lease, token: this.token, ms: this.options.leaseMs }));
    if (!holds) return { holds: false };
    const [sent, silences] = await connection.attempt(() => readAlertState(connection, this.keys));
    const due = dueNotices({
      marks: new Map(judged.queues.filter((row) => row.error === undefined).map((row) => [row.queue, row.marks])),
      unreadable: new Set(judged.queues.filter((row) => row.error !== undefined).map((row) => row.queue)),
      sent,
      silences,
      now: judged.now,
      repeatSeconds: notify.repeatMinutes * 60,
      covered: (queue, kind) => notify.webhooks.some((webhook) => webhookCovers(webhook, queue, kind)),
    });
    const notices = due.map((notice) => this.noticeOf(notice, judged.now));
    const deliveries = await Promise.all(notices.map((notice) => this.deliver(notice)));
    await connection.attempt(() => this.record(connection, due, notices, deliveries, sent, silences, judged.now));
    return { holds: true, sent: notices };
  }

  private noticeOf(due: DueNotice, now: number): Notice {
    const text = due.mark ? this.options.describe(due.queue, due.mark, now) : (due.next.text ?? fallbackText(due.queue, due.kind));
    due.next.text = text;
    return {
      connection: this.options.connection.name,
      queue: due.queue,
      kind: due.kind,
      state: due.state,
      text,
      // The link names its connection: opened in a browser showing another, the page says so rather than showing that one's queue of the same name.
      url: noticeUrl(this.options.publicUrl, withConnection(text.href, this.options.connection.name)),
      at: now,
    };
  }

  /** Posts `notice` to every webhook that takes it; the failures, each as one line naming the webhook's host. */
  private async deliver(notice: Notice): Promise<{ webhooks: number; failures: string[] }> {
    const webhooks = this.options.connection.notify.webhooks.filter((webhook) => webhookCovers(webhook, notice.queue, notice.kind));
    const failures = (await Promise.all(webhooks.map((webhook) => postNotice(webhook, notice)))).filter((failure): failure is string => failure !== null);
    for (const failure of failures) this.options.log('warn', 'an alert webhook failed', { connection: notice.connection, queue: notice.queue, failure });
    return { webhooks: webhooks.length, failures };
  }

  /** One pipeline: what was sent, the recent notices, and the silences and flap memory that have run out. */
  private async record(
    connection: RedisConnection,
    due: readonly DueNotice[],
    notices: readonly Notice[],
    deliveries: readonly { webhooks: number; failures: string[] }[],
    sent: ReadonlyMap<string, SentState>,
    silences: ReadonlyMap<string, number>,
    now: number,
  ): Promise<void> {
    const writes = connection.redis.pipeline();
    due.forEach((notice) => writes.hset(this.keys.sent, markField(notice.queue, notice.kind), JSON.stringify(notice.next)));
    notices.forEach((notice, index) => {
      const { webhooks, failures } = deliveries[index]!;
      writes.xadd(this.keys.recent, 'MAXLEN', '~', RECENT_NOTICES_CAP, '*', ...recentFields(notice, webhooks, failures));
    });
    const repeatSeconds = this.options.connection.notify.repeatMinutes * 60;
    const changed = new Set(due.map((notice) => markField(notice.queue, notice.kind)));
    // A cleared mark is remembered only as long as it could still be a flap.
    const forgotten = [...sent]
      .filter(([field, state]) => !changed.has(field) && !state.active && now - state.startedAt >= repeatSeconds)
      .map(([field]) => field);
    const ended = [...silences].filter(([, until]) => until <= now).map(([field]) => field);
    if (forgotten.length > 0) writes.hdel(this.keys.sent, ...forgotten);
    if (ended.length > 0) writes.hdel(this.keys.silences, ...ended);
    if (writes.length > 0) await execPipeline(writes);
  }
}

/** What was last sent per mark, and the silences, in one round trip. */
export async function readAlertState(connection: RedisConnection, keys: AlertKeys): Promise<[Map<string, SentState>, Map<string, number>]> {
  const [sent, silences] = (await execPipeline(connection.redis.pipeline().hgetall(keys.sent).hgetall(keys.silences))) as [
    Record<string, string>,
    Record<string, string>,
  ];
  const states = new Map<string, SentState>();
  for (const [field, json] of Object.entries(sent)) {
    const state = parseSentState(json);
    if (state) states.set(field, state);
  }
  return [states, new Map(Object.entries(silences).map(([field, until]) => [field, Number(until)]))];
}

function parseSentState(json: string): SentState | null {
  try {
    const value = JSON.parse(json) as Partial<SentState>;
    return typeof value.active === 'boolean' && typeof value.startedAt === 'number' ? (value as SentState) : null;
  } catch {
    return null;
  }
}

/** For a clear whose start was sent before its words were kept: the mark's name and the queue's page. */
function fallbackText(queue: string, kind: MarkKind): NoticeText {
  return { title: kind, detail: '', href: `/queues/${encodeURIComponent(queue)}`, action: 'See the queue' };
}

/** Posts one notice; null when the webhook took it, else why not (its host, never its secret path). */
async function postNotice(webhook: Webhook, notice: Notice): Promise<string | null> {
  const host = new URL(webhook.url).host;
  try {
    const response = await fetch(webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(noticeBody(webhook.format, notice)),
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      redirect: 'error',
    });
    // The body is not needed, but left unread it holds the connection.
    await response.body?.cancel();
    return response.ok ? null : `${host} answered HTTP ${response.status}`;
  } catch (error) {
    return `${host}: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const RECENT_FIELDS = ['queue', 'kind', 'state', 'title', 'url', 'webhooks', 'failures'] as const;

function recentFields(notice: Notice, webhooks: number, failures: readonly string[]): string[] {
  const values = [notice.queue, notice.kind, notice.state, notice.text.title, notice.url, String(webhooks), failures.join('\n')];
  return RECENT_FIELDS.flatMap((field, index) => [field, values[index]!]);
}

/** One notice as the alerts page lists it. */
export interface RecentNotice {
  /** when it was sent, ms, from the stream id (the Redis server's clock) */
  at: number;
  queue: string;
  kind: MarkKind | string;
  state: NoticeState | string;
  title: string;
  url: string;
  webhooks: number;
  failures: string[];
}

/** The newest `count` notices sent on the connection, newest first. */
export async function readRecentNotices(connection: RedisConnection, keys: AlertKeys, count: number): Promise<RecentNotice[]> {
  const entries = (await connection.redis.xrevrange(keys.recent, '+', '-', 'COUNT', count)) as [string, string[]][];
  return entries.map(([id, flat]) => {
    const fields = new Map<string, string>();
    for (let i = 0; i + 1 < flat.length; i += 2) fields.set(flat[i]!, flat[i + 1]!);
    const failures = fields.get('failures') ?? '';
    return {
      at: Number(id.split('-')[0]),
      queue: fields.get('queue') ?? '',
      kind: fields.get('kind') ?? '',
      state: fields.get('state') ?? '',
      title: fields.get('title') ?? '',
      url: fields.get('url') ?? '',
      webhooks: Number(fields.get('webhooks') ?? 0),
      failures: failures === '' ? [] : failures.split('\n'),
    };
  });
}

/** The silences still running, by queue and mark, until when (unix seconds). */
export function runningSilences(silences: ReadonlyMap<string, number>, now: number): { queue: string; kind: MarkKind; until: number }[] {
  return [...silences].flatMap(([field, until]) => {
    const target = parseMarkField(field);
    return target && until > now ? [{ ...target, until }] : [];
  });
}

/** Silences `kind` on `queue` until `until` (unix seconds); 0 or a past time lifts it. One HSET: the sender reads it on its next tick. */
export async function silenceMark(connection: RedisConnection, keys: AlertKeys, queue: string, kind: MarkKind, until: number): Promise<void> {
  await connection.redis.hset(keys.silences, markField(queue, kind), String(until));
}
