import { QueueError } from '../redis/errors';
import type { TrashSettings } from '../shapes/trash';
import { dashboardPrefixFromEnv } from './keys';

export const DEFAULT_TRASH_SECONDS = 86_400;
export const DEFAULT_TRASH_MAX = 10_000;

function wholeNumberFromEnv(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) throw new QueueError(`${name} must be a whole number of 0 or more, got "${value}"`);
  return parsed;
}

/**
 * The trash as the environment sets it: QUEUELENS_TRASH_SECONDS (24 hours
 * unless set; 0 turns the trash off) and QUEUELENS_TRASH_MAX (10,000 jobs).
 * A value that is no whole number throws: a typo must not silently turn
 * the trash off.
 */
export function trashSettingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): TrashSettings {
  const maxEntries = wholeNumberFromEnv(env.QUEUELENS_TRASH_MAX, 'QUEUELENS_TRASH_MAX', DEFAULT_TRASH_MAX);
  return {
    dashboardPrefix: dashboardPrefixFromEnv(env),
    keepSeconds: maxEntries === 0 ? 0 : wholeNumberFromEnv(env.QUEUELENS_TRASH_SECONDS, 'QUEUELENS_TRASH_SECONDS', DEFAULT_TRASH_SECONDS),
    maxEntries,
  };
}
