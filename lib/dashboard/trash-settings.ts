import { QueueError } from '../redis/errors';
import type { TrashSettings } from '../shapes/trash';
import { dashboardPrefixFromEnv } from './keys';

export const DEFAULT_TRASH_SECONDS = 86_400;
export const DEFAULT_TRASH_MAX = 10_000;
/** 64 MiB: ten thousand jobs of a few KiB each fit, while a run of huge payloads cannot fill a struggling Redis. */
export const DEFAULT_TRASH_MAX_BYTES = 64 * 1024 * 1024;

function wholeNumberFromEnv(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined || value.trim() === '') return fallback;
  const parsed = Number(value);
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed)) throw new QueueError(`${name} must be a whole number of 0 or more, got "${value}"`);
  return parsed;
}

/**
 * The trash as the environment sets it: QUEUELENS_TRASH_SECONDS (24 hours
 * unless set), QUEUELENS_TRASH_MAX (10,000 jobs) and
 * QUEUELENS_TRASH_MAX_BYTES (64 MiB per driver prefix); 0 for any of them
 * turns the trash off. A value that is no whole number throws: a typo must
 * not silently turn the trash off.
 */
export function trashSettingsFromEnv(env: Readonly<Record<string, string | undefined>> = process.env): TrashSettings {
  const maxEntries = wholeNumberFromEnv(env.QUEUELENS_TRASH_MAX, 'QUEUELENS_TRASH_MAX', DEFAULT_TRASH_MAX);
  const maxBytes = wholeNumberFromEnv(env.QUEUELENS_TRASH_MAX_BYTES, 'QUEUELENS_TRASH_MAX_BYTES', DEFAULT_TRASH_MAX_BYTES);
  const keepSeconds = wholeNumberFromEnv(env.QUEUELENS_TRASH_SECONDS, 'QUEUELENS_TRASH_SECONDS', DEFAULT_TRASH_SECONDS);
  return {
    dashboardPrefix: dashboardPrefixFromEnv(env),
    keepSeconds: maxEntries === 0 || maxBytes === 0 ? 0 : keepSeconds,
    maxEntries,
    maxBytes,
  };
}
