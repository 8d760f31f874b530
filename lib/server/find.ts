import 'server-only';
import { z } from 'zod';
import {
  FIND_FIELDS,
  FIND_STATES,
  MAX_FIND_TEXT,
  findTimeText,
  isRanged,
  parseFindTime,
  type EveryMatchAction,
  type EveryMatchStep,
  type FindQuery,
  type FindState,
  type FindStep,
  type FindTimes,
  type TrashFull,
} from '@/lib/shapes/find';
import type { Access } from '@/lib/auth/credentials';
import type { Connection } from '@/lib/dashboard/connections';
import { isAbsent, type LayoutCounts, type QueueLayout } from '@/lib/layouts/adapter';
import { QueueError } from '@/lib/redis/errors';
import { EVERY_MATCH_STEP_MAX, everyMatchStep } from '@/lib/layouts/every-match';
import { FIND_CHUNK } from '@/lib/layouts/find-steps';
import { overviewTickOf } from '@/lib/dashboard/every-queue-overview';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { sampleMsFromEnv } from '@/lib/dashboard/sampling';
import { pickerNames } from '@/lib/shapes/queue-picker';
import { getLayout, readCapability, readLayout, type ReadResult } from './queue';
import { dashboardTrashWrite, keepsTrash } from './trash';

/** A range's end in an address: a UTC minute or second (`2026-12-05T12:00Z`), as Unix ms. */
const findTime = z
  .string()
  .max(40)
  .transform((text, context) => {
    const ms = parseFindTime(text);
    if (ms === null) context.addIssue({ code: 'custom', message: `${text} is no UTC time such as 2026-12-05T12:00Z` });
    return ms ?? 0;
  });

/**
 * A search as a URL (the page's and GET /api/find's, as findSearchParams
 * writes it): `states` comma-joined, empty for every state; `case=ignore`
 * folds ASCII letters; `from` and `until` a time range, each a UTC time
 * (`2026-12-05T12:00Z`), either left out.
 */
export const findParams = z
  .object({
    text: z.string().min(1).max(MAX_FIND_TEXT),
    field: z.enum(FIND_FIELDS).default('any'),
    queue: z.string().max(1000).optional(),
    states: z
      .string()
      .max(100)
      .default('')
      .transform((text) => text.split(',').filter((state) => state !== ''))
      .pipe(z.array(z.enum(FIND_STATES))),
    case: z.enum(['exact', 'ignore']).default('exact'),
    from: findTime.optional(),
    until: findTime.optional(),
    cursor: z.string().max(4000).optional(),
  })
  .refine((params) => params.from === undefined || params.until === undefined || params.from < params.until, { message: 'from is before until' });

export const FIND_PARAMS_RULE = `text is 1 to ${MAX_FIND_TEXT} characters; field is one of ${FIND_FIELDS.join(', ')}; states are among ${FIND_STATES.join(', ')}; case is exact or ignore; from and until are UTC times such as 2026-12-05T12:00Z, from before until`;

/** The search a parsed address names, and the cursor of the step it asks for (null: the first). */
export function findQueryOfParams(params: z.infer<typeof findParams>): { query: FindQuery; cursor: string | null } {
  const { text, field, queue, states, cursor, from, until } = params;
  const range = { from: from ?? null, until: until ?? null };
  return {
    query: {
      text,
      field,
      queue: queue === undefined || queue === '' ? null : queue,
      states,
      ignoreCase: params.case === 'ignore',
      ...(isRanged(range) && { range }),
    },
    cursor: cursor ?? null,
  };
}

/** One step of a search, for GET /api/find: the browser asks for the next while its tab is open, so an abandoned search stops. */
export function readFindStep(query: FindQuery, cursor: string | null): Promise<ReadResult<FindStep>> {
  return readCapability('finder', async (finder, connection) =>
    finder.step(query, cursor, 0, cursor === null ? { counts: await sharedCounts(connection) } : {}),
  );
}

/**
 * The counts a search's first step tells "about M" from: the overview's
 * latest tick, which every viewer shares, so that beginning a search does
 * not read every queue's counts again (a read of every queue, 10,000 of
 * them on some connections); undefined before the overview was ever read,
 * and the step reads its own.
 */
async function sharedCounts(connection: Connection): Promise<LayoutCounts | undefined> {
  const { latest } = await latestOverview(connection, await getLayout(connection));
  return latest === null ? undefined : { queues: latest.value.queues, failed: latest.value.failed };
}

/** The overview's latest tick on `connection`, read again only when older than two sampler ticks. */
function latestOverview(connection: Connection, layout: QueueLayout) {
  return overviewTickOf(connection, layout, dashboardPrefixFromEnv()).current(sampleMsFromEnv() * 2);
}

/**
 * What the form offers on the connection's layout: the states it can find
 * jobs in, and its queues' names for the picker (lib/shapes/queue-picker.ts),
 * from the overview's latest tick: counting every queue for them cost each
 * load of the page a read of every queue.
 */
export function readFindScope(): Promise<ReadResult<{ states: readonly FindState[]; times: FindTimes; queues: string[] }>> {
  return readLayout(async (layout, connection) => {
    const { latest, failure } = await latestOverview(connection, layout);
    if (latest === null) throw failure?.error ?? new Error('the overview was never read');
    const finder = isAbsent(layout.finder) ? null : layout.finder;
    return { states: finder?.states ?? [], times: finder?.times ?? {}, queues: pickerNames(latest.value.queues.map((row) => row.queue).sort()) };
  });
}

/** The search a page's listed matches were found by, as an action on them names it: for the audit log, and to re-check them. */
export const foundBy = z.object({
  text: z.string().min(1).max(MAX_FIND_TEXT),
  field: z.enum(FIND_FIELDS),
  // A caller that names no case rule searched case-sensitively.
  ignoreCase: z.boolean().default(false),
});

export type FoundBy = z.output<typeof foundBy>;

/** How the audit log names the search a batch of listed matches was found by. */
export function describeFoundBy({ text, field, ignoreCase }: FoundBy): string {
  return `found by “${text}” (${field}${ignoreCase ? ', ignoring case' : ''})`;
}

/** An audited outcome ("3 removed") with what the re-checks left alone: jobs no longer matching the search, and jobs that had moved on. */
export function describeFoundOutcome(done: string, unmatched: number, movedOn = 0): string {
  return [done, ...(unmatched > 0 ? [`${unmatched} no longer matched the search`] : []), ...(movedOn > 0 ? [`${movedOn} had moved on`] : [])].join(', ');
}

/**
 * Of `ids`, matches `search` listed (all failed, or all live), those that
 * still match it, in their order: read again just before the action, which
 * then re-checks where each is (lib/layouts/pages.ts JobFinder.stillMatching).
 */
export async function stillMatching(connection: Connection, search: FoundBy, of: 'failed' | 'live', ids: readonly string[]): Promise<string[]> {
  const finder = (await getLayout(connection)).finder;
  if (isAbsent(finder)) throw new QueueError(`${finder.absent}.`);
  const matching = await finder.stillMatching({ ...search, queue: null, states: [] }, of, ids);
  return ids.filter((id) => matching.has(id));
}

/** Far more than a chunk ever holds, so that a forged `taken` is refused. */
const MAX_TAKEN = 10 * FIND_CHUNK;

/** A search as an action on every match takes it (the page's query as a value, not an address), and where its steps are. */
export const everyMatchInput = z.object({
  text: z.string().min(1).max(MAX_FIND_TEXT),
  field: z.enum(FIND_FIELDS),
  ignoreCase: z.boolean().default(false),
  queue: z.string().min(1).max(1000).nullable().default(null),
  states: z.array(z.enum(FIND_STATES)).max(FIND_STATES.length).default([]),
  /** the search's time range, Unix ms, either open (null) */
  range: z
    .object({ from: z.number().int().min(0).nullable(), until: z.number().int().min(0).nullable() })
    .refine((range) => range.from === null || range.until === null || range.from < range.until, { message: 'from is before until' })
    .optional(),
  /** null: the first step */
  cursor: z.string().max(4000).nullable(),
  /**
   * the step before's `taken`: what its last chunk's matches took out. Not
   * bounded by FIND_CHUNK: a SCAN's COUNT is a hint, and a chunk of a sorted
   * set or hash may hold a few more (only a list's offset, read exactly, uses it)
   */
  taken: z.number().int().min(0).max(MAX_TAKEN).default(0),
  /** a forget or remove goes on when the Trash is full, dropping its oldest jobs: the operator said so */
  dropOldest: z.boolean().default(false),
});

export type EveryMatchInput = z.output<typeof everyMatchInput>;

/**
 * One step of `action` on every match of the input's search, on the action's
 * connection; `kept`: what it took is in the trash. A forget or remove that
 * the Trash has no room to keep in full does not start unless `dropOldest`:
 * it answers `trashFull`, and the page asks the operator.
 */
export async function runEveryMatchStep(
  action: EveryMatchAction,
  input: EveryMatchInput,
  connection: Connection,
  access: Access,
): Promise<EveryMatchStep & { kept: boolean; trashFull: TrashFull | null }> {
  const { text, field, ignoreCase, queue, states, range, cursor, taken, dropOldest } = input;
  const trash = dashboardTrashWrite(access);
  const layout = await getLayout(connection);
  const keeps = action !== 'retry' && (await keepsTrash(connection, trash));
  if (keeps && !dropOldest && !isAbsent(layout.trash)) {
    const { total, maxEntries } = await layout.trash.list(trash, 0, 0);
    if (maxEntries - total < EVERY_MATCH_STEP_MAX) return { ...notStarted(cursor, taken), kept: false, trashFull: { held: total, max: maxEntries } };
  }
  const query = { text, field, ignoreCase, queue, states, ...(range !== undefined && { range }) };
  const counts = cursor === null ? await sharedCounts(connection) : undefined;
  const step = await everyMatchStep(layout, action, query, { cursor, taken, counts }, trash);
  return { ...step, kept: keeps && step.acted > 0, trashFull: null };
}

/** A step that did nothing: the next one starts where it would have. */
function notStarted(cursor: string | null, taken: number): EveryMatchStep {
  return { cursor, taken, looked: 0, about: 0, matched: 0, acted: 0, movedOn: 0, refused: 0, why: null, queues: [] };
}

/** How the audit log names the search an every-match step acted on, whether the step began it, and whether the operator let it drop the Trash's oldest. */
export function describeEveryMatchSearch({ text, field, ignoreCase, queue, states, range, cursor, dropOldest }: EveryMatchInput): string {
  const scope = [
    field,
    ...(ignoreCase ? ['ignoring case'] : []),
    ...(queue === null ? [] : [`queue ${queue}`]),
    ...(states.length > 0 ? [states.join(', ')] : []),
    ...(isRanged(range) ? [describeRange(range)] : []),
  ];
  // First, so that a long text cut at the audit's 256 characters does not cut it.
  return `${dropOldest ? 'the Trash’s oldest dropped to make room: ' : ''}every match of “${text}” (${scope.join(', ')}), ${cursor === null ? 'from the start' : 'going on'}`;
}

/** What an every-match step did, for the audit log. */
export function describeEveryMatchStep(done: string, step: EveryMatchStep & { trashFull: TrashFull | null }): string {
  if (step.trashFull !== null) return `not started: the Trash holds ${step.trashFull.held} of ${step.trashFull.max} jobs, too full to keep a step's in full`;
  const besides = [
    ...(step.movedOn > 0 ? [`${step.movedOn} had moved on`] : []),
    ...(step.refused > 0 ? [`${step.refused} refused${step.why === null ? '' : ` (${step.why})`}`] : []),
  ];
  return `${done} ${step.acted} of ${step.matched} found${besides.length > 0 ? `, ${besides.join(', ')}` : ''}; looked at ${step.looked} of about ${step.about}${step.cursor === null ? ', done' : ''}`;
}

/** A range as the audit log and the CLI name it: `from 2026-12-05T12:00Z until 2026-12-05T13:00Z` (UTC), an open side left out. */
export function describeRange(range: { from: number | null; until: number | null }): string {
  return [range.from === null ? '' : `from ${findTimeText(range.from)}`, range.until === null ? '' : `until ${findTimeText(range.until)}`]
    .filter(Boolean)
    .join(' ');
}
