/** How often live queries poll, in ms; false: they do not poll. */
export type PollInterval = number | false;

/** The choices the header offers, besides the configured default. */
export const POLL_CHOICES: readonly PollInterval[] = [1_000, 2_000, 5_000, 10_000, false];
/** Below this an open tab would mostly measure its own requests. */
export const MIN_POLL_MS = 500;
const FALLBACK_POLL_MS = 2_000;

/**
 * Every read the browser makes says the interval its tab polls at, so that
 * the server answers it from a snapshot no older than three quarters of it
 * (see lib/server/queue.ts readRedis).
 */
export const POLL_INTERVAL_HEADER = 'x-queuelens-poll-ms';
const STORAGE_KEY = 'queuelens.pollInterval';
// Where the choice lives when the browser refuses storage (some private
// modes): it then lasts until the tab is reloaded.
let unstored: string | null = null;

/** The operator's choice as stored in this browser (localStorage), or null; always null on the server. */
export function readStoredPollInterval(): string | null {
  if (typeof window === 'undefined') return null;
  try {
    return window.localStorage.getItem(STORAGE_KEY) ?? unstored;
  } catch {
    return unstored;
  }
}

export function storePollInterval(interval: PollInterval): void {
  const value = serializePollInterval(interval);
  try {
    window.localStorage.setItem(STORAGE_KEY, value);
  } catch {
    unstored = value;
  }
}

/**
 * A stored or configured interval: a whole number of ms (at least
 * MIN_POLL_MS), or `0` / `off` for no polling. Anything else is undefined, so
 * the caller falls back to its default.
 */
export function parsePollInterval(text: string | null | undefined): PollInterval | undefined {
  const value = text?.trim().toLowerCase();
  if (value === 'off' || value === '0') return false;
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  const ms = Number(value);
  return Number.isSafeInteger(ms) && ms >= MIN_POLL_MS ? ms : undefined;
}

export function serializePollInterval(interval: PollInterval): string {
  return interval === false ? 'off' : String(interval);
}

/**
 * The interval an operator who chose nothing gets: NEXT_PUBLIC_QUEUELENS_POLL_MS
 * as `next build` inlined it (it is a build-time setting), else 2 s.
 */
export const DEFAULT_POLL_INTERVAL: PollInterval = parsePollInterval(process.env.NEXT_PUBLIC_QUEUELENS_POLL_MS) ?? FALLBACK_POLL_MS;

/** The interval this tab polls at: the stored choice, else the default. */
export function currentPollInterval(): PollInterval {
  return parsePollInterval(readStoredPollInterval()) ?? DEFAULT_POLL_INTERVAL;
}

/** The choices to offer: POLL_CHOICES plus `defaultInterval` and `current` when they are not among them, fastest first, off last. */
export function pollChoices(defaultInterval: PollInterval, current: PollInterval): PollInterval[] {
  const ms = new Set<number>();
  for (const choice of [...POLL_CHOICES, defaultInterval, current]) if (choice !== false) ms.add(choice);
  return [...[...ms].sort((a, b) => a - b), false];
}

export function formatPollInterval(interval: PollInterval): string {
  return interval === false ? 'Off' : `${interval / 1000} s`;
}
