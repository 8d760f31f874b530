import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { QueueClient } from '../../queue/client';

/** The yii2 dumps written by the real drivers, beside the checkout (../shared/fixtures/README.md). */
const FIXTURES_DIR = resolve(fileURLToPath(new URL('../../..', import.meta.url)), '../shared/fixtures');

export const YII2_FIXTURES = ['stock', 'ng-strict', 'ng-aging', 'ng-json-serializer'] as const;
export type Yii2FixtureName = (typeof YII2_FIXTURES)[number];

/** What the driver reported at capture (`yii2/*.expected.json`), the parts these tests read. */
export interface Yii2Expected {
  layout: 'yii2' | 'yii2-ng-aging';
  driver: { package?: string } & Record<string, unknown>;
  config: { class: string; channel: string };
  statistics: { waiting: number; delayed: number; reserved: number; done: number };
  jobs: Record<string, { state: string; attempts: number | null; priority?: number; reserved_until_unix_s?: number; delayed_until_unix_s?: number }>;
}

export function readYii2Expected(name: Yii2FixtureName): Yii2Expected {
  return JSON.parse(readFileSync(resolve(FIXTURES_DIR, `yii2/${name}.expected.json`), 'utf8')) as Yii2Expected;
}

/** Which driver wrote the fixture: ng's class is ldkafka's. */
export function driverOf(expected: Yii2Expected): 'yii2' | 'yii2-ng' {
  return expected.config.class.startsWith('ldkafka\\') ? 'yii2-ng' : 'yii2';
}

/**
 * Loads a yii2 fixture as channel `channel` (its keys `<channel>.*`) with
 * its times shifted to now, so it shows the states it showed at capture.
 */
export async function loadYii2Fixture(redis: QueueClient, name: Yii2FixtureName, channel: string): Promise<Yii2Expected> {
  const expected = readYii2Expected(name);
  const fixture: unknown = JSON.parse(readFileSync(resolve(FIXTURES_DIR, `yii2/${name}.json`), 'utf8'));
  const { loadKeys } = (await import(pathToFileURL(resolve(FIXTURES_DIR, 'load-keys.mjs')).href)) as {
    loadKeys(redis: QueueClient, fixture: unknown, prefix: string, options: { shiftLayout: string }): Promise<unknown>;
  };
  await loadKeys(redis, fixture, `${channel}.`, { shiftLayout: expected.layout });
  return expected;
}
