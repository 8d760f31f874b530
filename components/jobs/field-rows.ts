import type { DisplayValue } from '@/lib/shapes/display-text';
import { JOB_FIELDS } from '@/lib/shapes/job-hash';

export interface FieldRow {
  name: string;
  /** null when the hash lacks a field every job has */
  value: DisplayValue | null;
}

/** What fail() adds to a hash; retry clears them. */
const FAILED_FIELDS = ['error', 'failed_at'] as const;

/**
 * A job's hash as the page lists it: the fields a push writes in the spec's
 * order (and error and failed_at while it is failed), each marked missing
 * when the hash lacks it, then whatever else the hash holds, in Redis' order.
 * A hash written by hand or half-deleted is shown for what it is.
 */
export function fieldRows(fields: readonly { name: string; value: DisplayValue }[], failed: boolean): FieldRow[] {
  const byName = new Map(fields.map((field) => [field.name, field.value]));
  const usual: string[] = [...JOB_FIELDS, ...FAILED_FIELDS.filter((name) => failed || byName.has(name))];
  const known = new Set<string>([...JOB_FIELDS, ...FAILED_FIELDS]);
  return [...usual.map((name) => ({ name, value: byName.get(name) ?? null })), ...fields.filter((field) => !known.has(field.name))];
}
