/**
 * A job id as a number when it is one a repair can name exactly: decimal,
 * no leading zero, and exact as a double. StaticPHP and yii2 count their ids
 * in Redis, as text that may run past what a JS number holds.
 */
export function exactJobId(text: string | undefined): number | undefined {
  if (text === undefined || !/^[1-9]\d*$/.test(text)) return undefined;
  const id = Number(text);
  return Number.isSafeInteger(id) ? id : undefined;
}

/**
 * A job id as a reader found it in Redis: a number when a JS number holds it
 * exactly, otherwise its decimal digits as text. PHP's ids are 64-bit, and
 * past 2^53 a number would round to a neighbour's id (9007199254740993 reads
 * as 9007199254740992). No action takes the text form: every mutation wants
 * a safe integer, so such a job is shown, never acted on.
 */
export type JobIdAsRead = number | string;

/** `text`, an id as stored, as a reader carries it; see JobIdAsRead. */
export function jobIdAsRead(text: string): JobIdAsRead {
  const value = Number(text);
  return Number.isSafeInteger(value) && String(value) === text ? value : text;
}

/** Whether `text`, an id as stored, is one a JS number holds exactly: one a page may link to and an action may take. */
export function isExactJobId(text: string): boolean {
  return typeof jobIdAsRead(text) === 'number';
}

/** The ids a JS number holds exactly: the ones an action can take. */
export function actionableJobIds(ids: readonly JobIdAsRead[]): number[] {
  return ids.filter((id): id is number => typeof id === 'number');
}

/** Orders ids by their value, digits included: a longer id is the larger one. */
export function compareJobIds(a: JobIdAsRead, b: JobIdAsRead): number {
  const [left, right] = [String(a), String(b)];
  return left.length - right.length || (left < right ? -1 : left > right ? 1 : 0);
}

/** What a page shows beside a job id it cannot act on, instead of a link or a button. */
export function beyondExactIdNote(id: string): string {
  return `id ${id} is beyond what QueueLens handles exactly: use a PHP worker or redis-cli`;
}
