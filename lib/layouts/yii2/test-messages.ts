import { readFixtureJson, type Fixture } from '../staticphp/test-fixtures';
import type { Yii2FixtureName } from './test-fixtures';

type Stored = { utf8: string } | { base64: string };

/** Each job's message as the real driver stored it in `<ch>.messages` (`<ttr>;<serialized job>`), by id. */
export function readYii2Messages(name: Yii2FixtureName): Map<string, Buffer> {
  const fixture = readFixtureJson<Omit<Fixture, 'keys'> & { keys: { key: string; value: unknown }[] }>(`yii2/${name}.json`);
  const messages = fixture.keys.find((key) => key.key === `${fixture.prefix}messages`);
  const bytes = (stored: Stored) => ('utf8' in stored ? Buffer.from(stored.utf8) : Buffer.from(stored.base64, 'base64'));
  return new Map(((messages?.value ?? []) as [Stored, Stored][]).map(([id, message]) => [bytes(id).toString(), bytes(message)]));
}
