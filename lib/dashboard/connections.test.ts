import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConnections, parseConnections } from './connections';

describe('connections file', () => {
  it('reads URLs and settings blocks, with the layout and read-only flag of each', () => {
    const connections = parseConnections(
      JSON.stringify({
        connections: [
          { name: 'local', label: 'Local', url: 'redis://127.0.0.1:6380/2', prefix: 'app:' },
          { name: 'prod', redis: { hostname: 'redis.internal', port: 'not a port', prefix: '{queue}:' }, group: 'php', readOnly: true },
          { name: 'secure', url: 'rediss://:pw@cache.example:6390' },
        ],
      }),
      'test.json',
    );
    expect(connections.map(({ name, label, readOnly }) => ({ name, label, readOnly }))).toEqual([
      { name: 'local', label: 'Local', readOnly: false },
      { name: 'prod', label: 'prod', readOnly: true },
      { name: 'secure', label: 'secure', readOnly: false },
    ]);
    expect(connections[0]!.settings).toMatchObject({ hostname: '127.0.0.1', port: 6380, database: 2, prefix: 'app:', group: 'workers' });
    // A wrong-typed port falls back to the default, as the PHP driver's connect() does.
    expect(connections[1]!.settings).toMatchObject({ hostname: 'redis.internal', port: 6379, prefix: '{queue}:', group: 'php' });
    expect(connections[2]!.settings).toMatchObject({ tls: true, password: 'pw', port: 6390 });
  });

  it('says what is wrong with a broken file, and where', () => {
    expect(() => parseConnections('{', 'a.json')).toThrow(/a\.json is not JSON/);
    expect(() => parseConnections('{"connections":[]}', 'a.json')).toThrow(/connections/);
    expect(() => parseConnections('{"connections":[{"name":"Bad Name","url":"redis://x"}]}', 'a.json')).toThrow(/connections\.0\.name/);
    expect(() => parseConnections('{"connections":[{"name":"a"}]}', 'a.json')).toThrow(/either "url" or "redis"/);
    expect(() => parseConnections('{"connections":[{"name":"a","url":"redis://x"},{"name":"a","url":"redis://y"}]}', 'a.json')).toThrow(/unique/);
    expect(() => parseConnections('{"connections":[{"name":"a","url":"http://x"}]}', 'a.json')).toThrow(/redis:\/\//);
  });

  it('falls back to the environment without a file, and insists on a file named explicitly', () => {
    const empty = mkdtempSync(join(tmpdir(), 'queuelens-config-'));
    expect(loadConnections({ REDIS_URL: 'redis://127.0.0.1:6390', QUEUE_PREFIX: 'p:' }, empty)).toEqual([
      expect.objectContaining({ name: 'default', label: '127.0.0.1:6390', readOnly: false, settings: expect.objectContaining({ prefix: 'p:' }) }),
    ]);
    expect(() => loadConnections({ QUEUELENS_CONFIG: join(empty, 'missing.json') }, empty)).toThrow(/Cannot read the connections file/);
    writeFileSync(join(empty, 'queuelens.config.json'), JSON.stringify({ connections: [{ name: 'here', url: 'redis://127.0.0.1' }] }));
    expect(loadConnections({}, empty).map((connection) => connection.name)).toEqual(['here']);
  });
});
