import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { QueueClient } from '../../redis/client';
import type { JobRow } from './job';
import type { QueueStats } from '../../shapes/queue-counts';

const CHECKOUT = fileURLToPath(new URL('../../..', import.meta.url));

/**
 * Redis dumps written by the real PHP drivers, with what the drivers' own
 * reports said about them (../shared/fixtures/README.md). They live beside
 * the checkout, not in it, as they do beside every worktree here. A clone
 * made elsewhere (CI's check clones /work/main into /tmp) finds them beside
 * the repository it was cloned from, when that is a folder on this machine.
 */
export const FIXTURES_DIR = locateFixtures();

function locateFixtures(): string {
  const beside = resolve(CHECKOUT, '../shared/fixtures');
  if (existsSync(beside)) return beside;
  const origin = originFolder();
  const besideOrigin = origin === null ? null : resolve(origin, '../shared/fixtures');
  return besideOrigin !== null && existsSync(besideOrigin) ? besideOrigin : beside;
}

/** The folder this checkout was cloned from, when its origin is a path on this machine; null otherwise. */
function originFolder(): string | null {
  try {
    const url = execFileSync('git', ['-C', CHECKOUT, 'config', '--get', 'remote.origin.url'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const path = url.startsWith('file://') ? fileURLToPath(url) : url;
    return isAbsolute(path) ? path : null;
  } catch {
    return null;
  }
}

export type StaticPhpFixtureName = 'rich-layout' | 'after-php-worker';

/** A stored string as the fixtures write it: UTF-8 text, or base64 when its bytes are not valid UTF-8. */
export type EncodedText = string | { base64: string };

/** What the StaticPHP driver's own reports returned at capture (`staticphp/*.expected.json`). */
export interface StaticPhpExpected {
  layout: 'staticphp';
  prefix: string;
  stats: QueueStats[];
  pending: Record<string, number>;
  pending_total: number;
  failed_count: number;
  /** failedRows(100) as returned; job 12's error is {base64} */
  failed_rows: (Omit<JobRow, 'error'> & { error?: EncodedText })[];
  /** each job by its role: id, queue and what it is, in words */
  jobs: Record<string, { id: number; queue: string; is: string }>;
}

export interface Fixture {
  format: number;
  prefix: string;
  captured_at: { unix_s: number; unix_ms: number };
  keys: unknown[];
}

/** The parts of load-keys.mjs and shift-times.mjs these tests use (plain JavaScript, no types of their own). */
interface FixtureTools {
  loadKeys(
    redis: QueueClient,
    fixture: Fixture,
    prefix: string,
    options: { shiftLayout: 'staticphp' | 'yii2' | 'yii2-ng-aging' },
  ): Promise<{ keys: number; deltaSeconds: number }>;
  shiftFixture(fixture: Fixture, layout: 'staticphp', deltaSeconds: number): Fixture;
  staticphpJobFields(deltaSeconds: number): Record<string, (text: string) => string>;
}

function assertFixturesPresent(): void {
  if (!existsSync(resolve(FIXTURES_DIR, 'load-keys.mjs'))) {
    throw new Error(
      `The PHP drivers' fixtures are missing: expected ${FIXTURES_DIR} (shared/fixtures beside the checkout or beside the folder it was cloned from, with load-keys.mjs). ` +
        'These tests check QueueLens against data the real drivers wrote and cannot run without it.',
    );
  }
}

/** load-keys.mjs and shift-times.mjs from the fixtures folder, or an error saying the folder is missing. */
export async function fixtureTools(): Promise<FixtureTools> {
  assertFixturesPresent();
  const load = (await import(pathToFileURL(resolve(FIXTURES_DIR, 'load-keys.mjs')).href)) as Pick<FixtureTools, 'loadKeys'>;
  const shift = (await import(pathToFileURL(resolve(FIXTURES_DIR, 'shift-times.mjs')).href)) as Omit<FixtureTools, 'loadKeys'>;
  return { loadKeys: load.loadKeys, shiftFixture: shift.shiftFixture, staticphpJobFields: shift.staticphpJobFields };
}

/** A file of the fixtures folder, parsed. */
export function readFixtureJson<T>(file: string): T {
  assertFixturesPresent();
  return JSON.parse(readFileSync(resolve(FIXTURES_DIR, file), 'utf8')) as T;
}

export function readStaticPhpExpected(name: StaticPhpFixtureName): StaticPhpExpected {
  return readFixtureJson<StaticPhpExpected>(`staticphp/${name}.expected.json`);
}

/** A fixture string as the bytes the driver stored. */
export function encodedBytes(text: EncodedText): Buffer {
  return typeof text === 'string' ? Buffer.from(text, 'utf8') : Buffer.from(text.base64, 'base64');
}

/**
 * A stored string as QueueLens reports it. The error of job 12 was cut by
 * the PHP driver at 60000 bytes in the middle of a character, so it is not
 * valid UTF-8; the reports hand out JS strings decoded as UTF-8, where the
 * lone byte reads as one U+FFFD (as TextDecoder decodes it). Tests compare
 * with that, and check the stored bytes apart.
 */
export function reportedText(text: EncodedText | undefined): string | undefined {
  return text === undefined ? undefined : encodedBytes(text).toString('utf8');
}

export interface LoadedFixture {
  expected: StaticPhpExpected;
  /** seconds every stored time was moved by */
  deltaSeconds: number;
  /**
   * The expected failed rows with their time fields moved by the same shift
   * (shift-times.mjs' staticphpJobFields). Errors stay as the fixture has
   * them: job 12's is {base64}, bytes that are not valid UTF-8.
   */
  failedRows: StaticPhpExpected['failed_rows'];
}

/**
 * Loads a StaticPHP fixture under `prefix` with its times shifted to now
 * (load-keys' `--shift-to-now staticphp`), so it shows the states it showed
 * at capture. `agedSeconds` moves every time that much further into the
 * past, as if the fixture had been captured that long before: claims and
 * parking deadlines minutes ahead have then run out, and delayed jobs are
 * due. The pending entries' idle times are set at load either way.
 */
export async function loadStaticPhpFixture(
  redis: QueueClient,
  name: StaticPhpFixtureName,
  prefix: string,
  { agedSeconds = 0 }: { agedSeconds?: number } = {},
): Promise<LoadedFixture> {
  const tools = await fixtureTools();
  const expected = readStaticPhpExpected(name);
  const captured = readFixtureJson<Fixture>(`staticphp/${name}.json`);
  // loadKeys shifts by (now - captured_at): moving the times back while
  // keeping captured_at makes the load land agedSeconds before now.
  const fixture = agedSeconds === 0 ? captured : { ...tools.shiftFixture(captured, 'staticphp', -agedSeconds), captured_at: captured.captured_at };
  const { deltaSeconds } = await tools.loadKeys(redis, fixture, prefix, { shiftLayout: 'staticphp' });
  const shift = deltaSeconds - agedSeconds;
  const rules = tools.staticphpJobFields(shift);
  const failedRows = expected.failed_rows.map((row) => {
    const moved: Record<string, unknown> = { ...row };
    for (const [field, rewrite] of Object.entries(rules)) {
      const value = moved[field];
      if (typeof value === 'string') moved[field] = rewrite(value);
    }
    return moved as StaticPhpExpected['failed_rows'][number];
  });
  return { expected, deltaSeconds: shift, failedRows };
}
