import { describe, expect, it } from 'vitest';
import { parseConnections } from './connections';
import { noticeUrl, publicUrlFromEnv, redactedWebhook } from './notices';

function fileWith(notify: unknown): string {
  return JSON.stringify({ connections: [{ name: 'main', url: 'redis://127.0.0.1:6379', notify }] });
}

describe('notify in the connections file', () => {
  it('reads webhooks with their formats and filters, defaults json, every queue and mark, and 15 min', () => {
    const [connection] = parseConnections(
      fileWith({
        webhooks: [
          { url: 'https://hooks.slack.com/services/T/B/secret', format: 'slack', queues: ['mail'], marks: ['stuck'] },
          { url: 'http://127.0.0.1:9000/hook' },
        ],
      }),
      'test.json',
    );
    expect(connection!.notify).toEqual({
      webhooks: [
        { url: 'https://hooks.slack.com/services/T/B/secret', format: 'slack', queues: ['mail'], marks: ['stuck'] },
        { url: 'http://127.0.0.1:9000/hook', format: 'json', queues: null, marks: null },
      ],
      repeatMinutes: 15,
    });
    expect(redactedWebhook(connection!.notify!.webhooks[0]!)).toEqual({ host: 'hooks.slack.com', format: 'slack', queues: ['mail'], marks: ['stuck'] });
  });

  it('refuses what it cannot send, saying where', () => {
    expect(() => parseConnections(fileWith({ webhooks: [{ url: 'https://x.example', format: 'smtp' }] }), 'f.json')).toThrow(
      'f.json is not a QueueLens connections file (connections.0.notify.webhooks.0.format: one of json, slack, teams)',
    );
    expect(() => parseConnections(fileWith({ webhooks: [{ url: 'ftp://x.example/hook' }] }), 'f.json')).toThrow(
      'connections.0.notify.webhooks.0.url: an http:// or https:// URL',
    );
    expect(() => parseConnections(fileWith({ webhooks: [] }), 'f.json')).toThrow('connections.0.notify.webhooks: at least one webhook');
    expect(() => parseConnections(fileWith({ webhooks: [{ url: 'https://x.example', marks: ['late'] }] }), 'f.json')).toThrow(
      'connections.0.notify.webhooks.0.marks.0: one of noWorker, stuck, failing, overdueDelayed',
    );
    expect(() => parseConnections(fileWith({ webhooks: [{ url: 'https://x.example' }], repeatMinutes: 0 }), 'f.json')).toThrow(
      'connections.0.notify.repeatMinutes: a whole number of minutes, 1 or more',
    );
  });

  it('links under QUEUELENS_PUBLIC_URL, a path kept, and ignores a value that is not an http(s) URL', () => {
    expect(noticeUrl(publicUrlFromEnv({ QUEUELENS_PUBLIC_URL: 'https://ops.example.com/queues/' }), '/failed?queue=a%2Fb')).toBe(
      'https://ops.example.com/queues/failed?queue=a%2Fb',
    );
    expect(publicUrlFromEnv({ QUEUELENS_PUBLIC_URL: 'queues.example.com' })).toBeNull();
    expect(noticeUrl(publicUrlFromEnv({}), '/reservations?queue=x')).toBe('/reservations?queue=x');
  });
});
