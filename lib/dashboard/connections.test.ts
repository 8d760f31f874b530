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

  it("reads each connection's layout with its settings, StaticPHP by default", () => {
    const [staticphp, stock, ng, marko, laravel] = parseConnections(
      JSON.stringify({
        connections: [
          { name: 'php', url: 'redis://127.0.0.1' },
          { name: 'stock', url: 'redis://127.0.0.1/3', layout: 'yii2' },
          { name: 'ng', url: 'redis://127.0.0.1', layout: 'yii2-ng', channels: ['queue', '{mail}'], database: 4, aging: 1, retryPosition: 'original' },
          { name: 'marko', url: 'redis://127.0.0.1', layout: 'marko', prefix: 'shop:', retryAfter: 90 },
          { name: 'laravel', url: 'redis://127.0.0.1', layout: 'laravel', queues: ['default', 'mail'], horizonPrefix: 'laravel_horizon:' },
        ],
      }),
      'test.json',
    );
    expect(staticphp!.layout).toEqual({ layout: 'staticphp' });
    expect(stock!.layout).toEqual({ layout: 'yii2', channels: ['queue'] });
    expect(stock!.settings.database).toBe(3);
    expect(ng!.layout).toEqual({
      layout: 'yii2-ng',
      channels: ['queue', '{mail}'],
      ng: { defaultPriority: 1024, aging: 1, retryPosition: 'original', delayPosition: 'back', batchSize: 100 },
    });
    expect(ng!.settings.database).toBe(4);
    expect(marko!.layout).toEqual({ layout: 'marko', prefix: 'shop:', retryAfter: 90, queues: null });
    // The marko prefix is the layout's: the StaticPHP settings keep their own.
    expect(marko!.settings.prefix).toBe('queue:');
    expect(laravel!.layout).toEqual({ layout: 'laravel', prefix: 'laravel_database_', queues: ['default', 'mail'], horizonPrefix: 'laravel_horizon:' });
  });

  it('names the field of a layout setting that is wrong or belongs to another layout', () => {
    const entry = (fields: object) => JSON.stringify({ connections: [{ name: 'a', url: 'redis://x', ...fields }] });
    const problem = (fields: object) => () => parseConnections(entry(fields), 'a.json');
    expect(problem({ layout: 'bull' })).toThrow('(connections.0.layout: one of staticphp, yii2, yii2-ng, marko, laravel)');
    expect(problem({ layout: 'marko', channel: 'queue' })).toThrow('(connections.0.channel: only a yii2 or yii2-ng connection has "channel", not a marko one)');
    expect(problem({ retryAfter: 90 })).toThrow('(connections.0.retryAfter: only a marko connection has "retryAfter", not a staticphp one)');
    expect(problem({ layout: 'yii2', channels: [] })).toThrow('(connections.0.channels: at least one channel)');
    expect(problem({ layout: 'yii2', channel: 'a', channels: ['b'] })).toThrow('(connections.0.channels: give either "channel" or "channels", not both)');
    expect(problem({ layout: 'yii2', aging: 1 })).toThrow('(connections.0.aging: only a yii2-ng connection has "aging", not a yii2 one)');
    expect(problem({ layout: 'yii2', prefix: 'app:' })).toThrow(
      '(connections.0.prefix: only a staticphp, marko or laravel connection has "prefix", not a yii2 one)',
    );
    expect(problem({ layout: 'laravel', retryAfter: 90 })).toThrow('(connections.0.retryAfter: only a marko connection has "retryAfter", not a laravel one)');
    expect(problem({ layout: 'marko', horizonPrefix: 'h:' })).toThrow(
      '(connections.0.horizonPrefix: only a laravel connection has "horizonPrefix", not a marko one)',
    );
    expect(problem({ queues: ['a'] })).toThrow('(connections.0.queues: only a marko or laravel connection has "queues", not a staticphp one)');
    expect(problem({ channel: 'queue' })).toThrow('(connections.0.channel: only a yii2 or yii2-ng connection has "channel", not a staticphp one)');
    expect(problem({ layout: 'yii2-ng', defaultPriority: 9001 })).toThrow('(connections.0.defaultPriority: an integer priority from 0 to 9000)');
    expect(problem({ layout: 'yii2-ng', retryPosition: 'front' })).toThrow('(connections.0.retryPosition: "back" or "original")');
  });

  it('reads each connection\'s alert thresholds, none when it has no "alerts"', () => {
    const [withAlerts, without] = parseConnections(
      JSON.stringify({
        connections: [
          { name: 'local', url: 'redis://127.0.0.1', alerts: { '*': { waitSeconds: 300 }, emails: { waitSeconds: 60, backlog: 1000 } } },
          { name: 'other', url: 'redis://127.0.0.1' },
        ],
      }),
      'test.json',
    );
    expect([...withAlerts!.alerts]).toEqual([
      ['*', { waitSeconds: 300 }],
      ['emails', { waitSeconds: 60, backlog: 1000 }],
    ]);
    expect(without!.alerts.size).toBe(0);
  });

  it('says which connection, queue and field of "alerts" is wrong', () => {
    const withAlerts = (alerts: unknown) =>
      JSON.stringify({
        connections: [
          { name: 'a', url: 'redis://x' },
          { name: 'b', url: 'redis://x', alerts },
        ],
      });
    expect(() => parseConnections(withAlerts({ emails: { waitSeconds: -5 } }), 'a.json')).toThrow(
      'a.json is not a QueueLens connections file (connections.1.alerts.emails.waitSeconds: a number of seconds, 0 or more)',
    );
    expect(() => parseConnections(withAlerts({ '*': { backlog: '100' } }), 'a.json')).toThrow(/connections\.1\.alerts\.\*\.backlog: a whole number of jobs\)/);
    expect(() => parseConnections(withAlerts({ emails: { wait: 60 } }), 'a.json')).toThrow(/connections\.1\.alerts\.emails: Unrecognized key: "wait"/);
    expect(() => parseConnections(withAlerts(60), 'a.json')).toThrow(/connections\.1\.alerts: an object of queue names/);
  });

  it('falls back to the environment without a file, and insists on a file named explicitly', () => {
    const empty = mkdtempSync(join(tmpdir(), 'queuelens-config-'));
    expect(loadConnections({ REDIS_URL: 'redis://127.0.0.1:6390', QUEUE_PREFIX: 'p:', QUEUELENS_ALERT_WAIT_SECONDS: '120' }, empty)).toEqual([
      expect.objectContaining({
        name: 'default',
        label: '127.0.0.1:6390',
        readOnly: false,
        settings: expect.objectContaining({ prefix: 'p:' }),
        alerts: new Map([['*', { waitSeconds: 120 }]]),
      }),
    ]);
    expect(() => loadConnections({ QUEUELENS_ALERT_BACKLOG: 'lots' }, empty)).toThrow(/QUEUELENS_ALERT_BACKLOG/);
    expect(() => loadConnections({ QUEUELENS_CONFIG: join(empty, 'missing.json') }, empty)).toThrow(/Cannot read the connections file/);
    writeFileSync(join(empty, 'queuelens.config.json'), JSON.stringify({ connections: [{ name: 'here', url: 'redis://127.0.0.1' }] }));
    expect(loadConnections({}, empty).map((connection) => connection.name)).toEqual(['here']);
  });
});
