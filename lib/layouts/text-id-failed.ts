import { QueueError } from '../redis/errors';
import type { FailedFilter, FailedRowView, FailedSearchChunk, ForgetOptions } from '../shapes/failed-jobs';
import type { TrashWrite } from '../shapes/trash';
import type { FailedJobs, TextIdFailedRow } from './adapter';
import type { FailedPagesReader } from './pages';

/*
 * What the layouts whose failed jobs are named by text ids share (marko's
 * failed store, Laravel Horizon's failed list): the row the failed page
 * shows, its search in bounded chunks, the forgets in bounded batches, and
 * the retry command's quoting where the application retries them.
 */

/** A failed row of such a layout as it reads it: the row's columns, when it failed and the command that retries it. */
export interface TextIdFailedRowRead extends TextIdFailedRow {
  /** the job's class or name ('' when the record names none) */
  name: string;
  /** the exception: message, newline, trace ('' when it has none) */
  error: string;
  /** when it failed, Y-m-d H:i:s UTC */
  failed_at: string;
  /** when it failed, unix seconds */
  failedAtSeconds: number;
  /** the exception's first line, cut for a table cell */
  errorFirstLine: string;
  /** the command that retries it where the application runs; null where QueueLens retries it itself */
  retryCommand: string | null;
}

/** `text` as one word of a POSIX shell command line. */
export function shellWord(text: string): string {
  return /^[\w.:-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

/** Pairs from a WITHSCORES reply. */
export function withScores(flat: readonly string[]): [string, number][] {
  const pairs: [string, number][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) pairs.push([flat[i]!, Number(flat[i + 1])]);
  return pairs;
}

function matches(row: TextIdFailedRowRead, filter: FailedFilter): boolean {
  const contains = (text: string, part: string | undefined) => !part || text.toLowerCase().includes(part.toLowerCase());
  return (!filter.queue || row.queue === filter.queue) && contains(row.name, filter.name) && contains(row.error, filter.error);
}

/** One page of a failed list, newest first, with the list's size. */
export interface TextIdFailedPage<Row extends TextIdFailedRowRead> {
  rows: Row[];
  total: number;
  offset: number;
  limit: number;
}

/** A search chunk over rows of a layout's own shape. */
export type TextIdSearchChunk<Row extends TextIdFailedRowRead> = Omit<FailedSearchChunk, 'matches'> & { matches: Row[] };

/**
 * Looks through a failed list from `offset`, newest first, `batch` entries
 * per page read, for rows matching `filter`; stops after `scanLimit`
 * entries so that one call stays short. Continue from `nextOffset` until
 * `done`.
 */
export async function searchTextIdFailed<Row extends TextIdFailedRowRead>(
  pageAt: (offset: number, limit: number) => Promise<TextIdFailedPage<Row>>,
  filter: FailedFilter,
  { offset = 0, scanLimit = 2000 }: { offset?: number; scanLimit?: number },
  batch: number,
): Promise<TextIdSearchChunk<Row>> {
  const found: Row[] = [];
  let position = offset;
  let total = 0;
  let done = false;
  while (position - offset < scanLimit) {
    const size = Math.min(batch, scanLimit - (position - offset));
    const page = await pageAt(position, size);
    total = page.total;
    found.push(...page.rows.filter((row) => matches(row, filter)));
    const looked = Math.min(size, Math.max(0, total - position));
    position += looked;
    if (looked < size) {
      done = true;
      break;
    }
  }
  return { matches: found, nextOffset: position, scanned: position - offset, total, done };
}

/** A row in the failed page's layout-neutral shape, with the command that retries it. */
export function textIdRowView(row: TextIdFailedRowRead): FailedRowView {
  return {
    id: row.id,
    // These layouts' pages read a job by its text id: nothing is rounded.
    exact: true,
    queue: row.queue,
    name: row.name,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    failedAt: row.failed_at,
    failedAtSeconds: row.failedAtSeconds,
    errorFirstLine: row.errorFirstLine,
    retryCommand: row.retryCommand,
  };
}

/** A layout's failed list read a page at a time, and searched in bounded chunks. */
export interface TextIdFailedList<Row extends TextIdFailedRowRead> {
  failedPage(offset: number, limit: number): Promise<TextIdFailedPage<Row>>;
  searchFailed(filter: FailedFilter, chunk: { offset: number; scanLimit: number }): Promise<TextIdSearchChunk<Row>>;
}

/** The failed page's reads over a layout's paged failed list and its search; `queueNames` are the connection's queues, for the filter. */
export function textIdFailedPages<Row extends TextIdFailedRowRead>(
  failed: TextIdFailedList<Row>,
  queueNames: () => Promise<readonly string[]>,
): FailedPagesReader {
  return {
    async page(offset, limit) {
      const { rows, total } = await failed.failedPage(offset, limit);
      return { rows: rows.map(textIdRowView), total, offset, limit };
    },
    async search(filter, chunk) {
      const found = await failed.searchFailed(filter, chunk);
      return { ...found, matches: found.matches.map(textIdRowView) };
    },
    queueNames: async (limit) => (await queueNames()).slice(0, limit),
  };
}

/** Forgets (or retries) `ids` through `step`, one script call of at most `batch` ids each; the calls' counts summed. */
export async function inIdBatches(ids: readonly string[], batch: number, step: (ids: readonly string[]) => Promise<number>): Promise<number> {
  let done = 0;
  for (let i = 0; i < ids.length; i += batch) done += await step(ids.slice(i, i + batch));
  return done;
}

/**
 * A forget as FailedJobs.forgetFailed asks it: the one `id`, or
 * those failed before `before`, or, only when `{ all: true }` asks for it,
 * every one, in bounded steps of `failed.forgetOldestFailed` until one
 * forgets nothing. The steps are capped by the list's size at the start
 * (`batch` a step), so that jobs failing meanwhile cannot keep it going.
 */
export async function forgetTextIdFailed(
  failed: Pick<FailedJobs, 'failedCount' | 'forgetFailedIds' | 'forgetOldestFailed'>,
  { id, before, options, trash }: { id: string | null; before: string | null; options: ForgetOptions; trash: TrashWrite | undefined },
  batch: number,
): Promise<number> {
  if (id !== null && before !== null) throw new QueueError('Forget either one id or the jobs failed before a date, not both');
  if (id === null && before === null && options.all !== true) {
    throw new QueueError('Forgetting every failed job must be asked for explicitly ({ all: true } or --all)');
  }
  if (id !== null) return failed.forgetFailedIds([id], trash);
  const rounds = Math.ceil((await failed.failedCount()) / batch) + 1;
  let forgotten = 0;
  for (let round = 0; round < rounds; round++) {
    const step = await failed.forgetOldestFailed(before, trash);
    if (step.forgotten === 0) break;
    forgotten += step.forgotten;
  }
  return forgotten;
}
