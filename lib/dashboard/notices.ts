import { z } from 'zod';
import type { QueueMark } from './marks';

/**
 * What QueueLens sends by itself when a queue's mark starts or clears:
 * the `notify` object of a connection in the connections file. Not inside
 * `alerts`, whose keys are queue names (a queue may be called `webhooks`).
 */

export const MARK_KINDS = ['noWorker', 'stuck', 'failing', 'overdueDelayed'] as const satisfies readonly QueueMark['kind'][];
export type MarkKind = (typeof MARK_KINDS)[number];

export const WEBHOOK_FORMATS = ['json', 'slack', 'teams'] as const;
export type WebhookFormat = (typeof WEBHOOK_FORMATS)[number];

/** A mark that starts again within this many minutes of its last start notice waits for the rest of them. */
export const DEFAULT_REPEAT_MINUTES = 15;

export interface Webhook {
  url: string;
  format: WebhookFormat;
  /** only these queues' marks; every queue when absent */
  queues: readonly string[] | null;
  /** only these marks; every mark when absent */
  marks: readonly MarkKind[] | null;
}

export interface NoticeRules {
  webhooks: readonly Webhook[];
  repeatMinutes: number;
}

const webhookEntry = z
  .object({
    url: z.url({ protocol: /^https?$/, error: 'an http:// or https:// URL' }),
    format: z.enum(WEBHOOK_FORMATS, { error: `one of ${WEBHOOK_FORMATS.join(', ')}` }).default('json'),
    queues: z.array(z.string().min(1, 'a queue name')).min(1, 'at least one queue, or leave "queues" out for every queue').optional(),
    marks: z
      .array(z.enum(MARK_KINDS, { error: `one of ${MARK_KINDS.join(', ')}` }))
      .min(1, 'at least one mark, or leave "marks" out for every mark')
      .optional(),
  })
  .strict();

/** The `notify` object of a connection in the connections file. */
export const noticeRulesSchema = z
  .object({
    webhooks: z.array(webhookEntry).min(1, 'at least one webhook'),
    repeatMinutes: z.number().int('a whole number of minutes').min(1, 'a whole number of minutes, 1 or more').max(1440).default(DEFAULT_REPEAT_MINUTES),
  })
  .strict()
  .transform(({ webhooks, repeatMinutes }): NoticeRules => ({
    webhooks: webhooks.map(({ url, format, queues, marks }) => ({ url, format, queues: queues ?? null, marks: marks ?? null })),
    repeatMinutes,
  }));

/** Whether `webhook` takes notices of `kind` on `queue`. */
export function webhookCovers(webhook: Webhook, queue: string, kind: MarkKind): boolean {
  return (webhook.queues === null || webhook.queues.includes(queue)) && (webhook.marks === null || webhook.marks.includes(kind));
}

/** A webhook as a page may show it: its host only, since the path of a Slack or Teams URL is its secret. */
export function redactedWebhook(webhook: Webhook): {
  host: string;
  format: WebhookFormat;
  queues: readonly string[] | null;
  marks: readonly MarkKind[] | null;
} {
  return { host: new URL(webhook.url).host, format: webhook.format, queues: webhook.queues, marks: webhook.marks };
}

/** One (queue, mark) as a field of QueueLens's alert hashes: the kind first, since queue names may hold anything. */
export function markField(queue: string, kind: MarkKind): string {
  return `${kind}\n${queue}`;
}

/** The (queue, mark) of a field markField wrote; null for anything else. */
export function parseMarkField(field: string): { queue: string; kind: MarkKind } | null {
  const cut = field.indexOf('\n');
  const kind = field.slice(0, cut) as MarkKind;
  return cut > 0 && MARK_KINDS.includes(kind) ? { queue: field.slice(cut + 1), kind } : null;
}

/** What was last sent for one (queue, mark): whether it was a start, when the last start went (unix seconds), and what it said, for its clear. */
export interface SentState {
  active: boolean;
  startedAt: number;
  text?: NoticeText;
}

export type NoticeState = 'started' | 'cleared';

/** A mark that starts or clears, to be sent, and the state to keep once it is. */
export interface DueNotice {
  queue: string;
  kind: MarkKind;
  state: NoticeState;
  /** the mark as judged now; for a clear, absent */
  mark: QueueMark | null;
  next: SentState;
}

export interface NoticeInput {
  /** each queue's marks now; a queue in neither this nor `unreadable` is gone, and its marks clear */
  marks: ReadonlyMap<string, readonly QueueMark[]>;
  /** queues whose keys could not be read: what was last sent for them stands */
  unreadable: ReadonlySet<string>;
  sent: ReadonlyMap<string, SentState>;
  /** field → silenced until, unix seconds */
  silences: ReadonlyMap<string, number>;
  /** the Redis server's clock, unix seconds */
  now: number;
  repeatSeconds: number;
  /** whether some webhook takes this (queue, mark) */
  covered: (queue: string, kind: MarkKind) => boolean;
}

/**
 * The notices due now. A mark that starts is sent unless the last start of
 * that (queue, mark) went less than `repeatSeconds` ago (a flapping mark
 * waits, and is sent when the interval is over if it is still on); a mark
 * that clears is sent when its start was, so every start sent is followed
 * by one clear. While a (queue, mark) is silenced nothing is sent and
 * nothing is recorded, so a mark still on when the silence ends is sent then.
 */
export function dueNotices({ marks, unreadable, sent, silences, now, repeatSeconds, covered }: NoticeInput): DueNotice[] {
  const due: DueNotice[] = [];
  const seen = new Set<string>();
  for (const [queue, queueMarks] of marks) {
    for (const mark of queueMarks) {
      const field = markField(queue, mark.kind);
      seen.add(field);
      const last = sent.get(field);
      if (last?.active || !covered(queue, mark.kind) || (silences.get(field) ?? 0) > now) continue;
      if (last && now - last.startedAt < repeatSeconds) continue;
      due.push({ queue, kind: mark.kind, state: 'started', mark, next: { active: true, startedAt: now } });
    }
  }
  for (const [field, last] of sent) {
    const target = parseMarkField(field);
    if (!target || !last.active || seen.has(field) || unreadable.has(target.queue) || (silences.get(field) ?? 0) > now) continue;
    due.push({ ...target, state: 'cleared', mark: null, next: { ...last, active: false } });
  }
  return due;
}

/** What a notice says, in the overview's words (components/queues/describe-mark.ts, handed in by the server). */
export interface NoticeText {
  title: string;
  detail: string;
  /** the path of the page that deals with the mark */
  href: string;
  /** that link's words */
  action: string;
}

export interface Notice {
  connection: string;
  queue: string;
  kind: MarkKind;
  state: NoticeState;
  text: NoticeText;
  /** the page that deals with it, absolute when QUEUELENS_PUBLIC_URL is set */
  url: string;
  /** unix seconds, the Redis server's clock */
  at: number;
}

/** The link of a notice: `href` under QUEUELENS_PUBLIC_URL when set, else the path alone (a chat cannot open it, but it says where to look). */
export function noticeUrl(publicUrl: string | null, href: string): string {
  // Appended, not resolved: resolving `/failed` against a dashboard served under a path would drop that path.
  return publicUrl === null ? href : `${publicUrl.replace(/\/+$/, '')}${href}`;
}

/** QUEUELENS_PUBLIC_URL, where the dashboard is reached, for the links of alerts; null when unset or not an http(s) URL. */
export function publicUrlFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const text = env.QUEUELENS_PUBLIC_URL?.trim();
  if (!text) return null;
  return URL.canParse(text) && /^https?:$/.test(new URL(text).protocol) ? text : null;
}

function headline(notice: Notice): string {
  const verb = notice.state === 'started' ? notice.text.title : `${notice.text.title}, cleared`;
  return `${verb}: ${notice.queue} on ${notice.connection}`;
}

/**
 * The body a webhook of `format` is posted: QueueLens's own JSON, Slack's
 * incoming-webhook `text` (mrkdwn, with its link), or a Teams message with an
 * Adaptive Card (what a Teams Workflows webhook takes, and what replaces the
 * retired Office 365 connectors' MessageCard).
 */
export function noticeBody(format: WebhookFormat, notice: Notice): unknown {
  const detail = notice.state === 'started' ? notice.text.detail : 'The mark is off again.';
  switch (format) {
    case 'json':
      return {
        connection: notice.connection,
        queue: notice.queue,
        mark: notice.kind,
        state: notice.state,
        title: notice.text.title,
        detail,
        url: notice.url,
        at: new Date(notice.at * 1000).toISOString(),
      };
    case 'slack':
      // The link escaped too: its query's & is markup to Slack, which reads &amp; back as & (as it writes links in the messages it returns).
      return { text: `*${slackEscape(headline(notice))}*\n${slackEscape(detail)}\n<${slackEscape(notice.url)}|${slackEscape(notice.text.action)}>` };
    case 'teams':
      return {
        type: 'message',
        attachments: [
          {
            contentType: 'application/vnd.microsoft.card.adaptive',
            content: {
              $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
              type: 'AdaptiveCard',
              version: '1.4',
              body: [
                { type: 'TextBlock', text: headline(notice), weight: 'Bolder', wrap: true, color: notice.state === 'started' ? 'Attention' : 'Good' },
                { type: 'TextBlock', text: detail, wrap: true },
              ],
              actions: [{ type: 'Action.OpenUrl', title: notice.text.action, url: notice.url }],
            },
          },
        ],
      };
  }
}

/** Slack reads &, < and > as markup: a queue name or an error holding them is shown as written. */
function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
