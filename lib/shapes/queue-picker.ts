/**
 * The most queue names a queue picker lists. With more (applications that
 * give each tenant its own queue run thousands), the picker is a field any
 * queue's name can be typed in, with these first names as suggestions: a
 * list of 10,000 names is half a megabyte of every page load that nobody
 * scrolls through. A reader gives a picker one name more than this, so it
 * knows there are more.
 */
export const QUEUE_PICKER_OPTIONS = 200;

/** The names a picker is given from `sorted`: at most one more than it lists. */
export function pickerNames(sorted: readonly string[]): string[] {
  return sorted.slice(0, QUEUE_PICKER_OPTIONS + 1);
}
