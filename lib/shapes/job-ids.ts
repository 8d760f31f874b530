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
