import type { QueueClient } from '../../redis/client';
import { fixtureTools, readFixtureJson, type Fixture } from '../staticphp/test-fixtures';
import { DEFAULT_YII2_NG_SETTINGS } from '../settings';
import type { Yii2Driver, Yii2Settings } from './layout';

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
  return readFixtureJson<Yii2Expected>(`yii2/${name}.expected.json`);
}

/** Which driver wrote the fixture: ng's class is ldkafka's. */
export function driverOf(expected: Yii2Expected): 'yii2' | 'yii2-ng' {
  return expected.config.class.startsWith('ldkafka\\') ? 'yii2-ng' : 'yii2';
}

/** What the driver reported, and how far the load moved the stored times (its `*_until_unix_s` are as captured). */
export interface LoadedYii2Fixture extends Yii2Expected {
  deltaSeconds: number;
}

/**
 * Loads a yii2 fixture as channel `channel` (its keys `<channel>.*`) with
 * its times shifted to now, so it shows the states it showed at capture.
 */
export async function loadYii2Fixture(redis: QueueClient, name: Yii2FixtureName, channel: string): Promise<LoadedYii2Fixture> {
  const expected = readYii2Expected(name);
  const { loadKeys } = await fixtureTools();
  const { deltaSeconds } = await loadKeys(redis, readFixtureJson<Fixture>(`yii2/${name}.json`), `${channel}.`, { shiftLayout: expected.layout });
  return { ...expected, deltaSeconds };
}

/** A connection's settings for `driver` over `channels`, redis-ng's at their defaults (the fixtures' strict ones). */
export function yii2Settings(driver: Yii2Driver, channels: string[]): Yii2Settings {
  return driver === 'yii2-ng' ? { layout: driver, channels, ng: { ...DEFAULT_YII2_NG_SETTINGS } } : { layout: driver, channels };
}
