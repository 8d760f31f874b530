import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { sleep, testQueueFactory, waitFor } from '../layouts/staticphp/test-redis';
import { AlertSender, readRecentNotices, silenceMark, type JudgedQueues } from './alert-sender';
import type { Connection } from './connections';
import { alertKeys, dashboardKeys } from './keys';
import { NO_ALERTS } from './alerts';
import { readHistory } from './history';
import { throughputKeys } from './keys';
import { DEFAULT_MARKS, type QueueMark } from './marks';
import type { NoticeRules, NoticeText, WebhookFormat } from './notices';
import { startSampling } from './sampling';

const openQueue = testQueueFactory();

interface Received {
  path: string;
  body: Record<string, unknown>;
}

/**
 * A real HTTP receiver on a free loopback port: every POST it gets, by path,
 * answered 200 (500 under /broken; under /held, only once `release` is called).
 */
async function startReceiver(): Promise<{ url: (path: string) => string; received: Received[]; release: () => void; close: () => Promise<void> }> {
  const received: Received[] = [];
  const held: (() => void)[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      response.statusCode = request.url?.startsWith('/broken') ? 500 : 200;
      if (request.url?.startsWith('/held')) held.push(() => response.end('ok'));
      else response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    received,
    release: () => held.splice(0).forEach((answer) => answer()),
    close: () => {
      held.splice(0).forEach((answer) => answer());
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const receivers: Awaited<ReturnType<typeof startReceiver>>[] = [];
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
});

async function receiver() {
  const opened = await startReceiver();
  receivers.push(opened);
  return opened;
}

const describe_ = (queue: string, mark: QueueMark): NoticeText => ({
  title: mark.kind === 'failing' ? 'Failing' : mark.kind,
  detail: mark.kind === 'failing' ? `${mark.failures} failures` : '',
  href: `/failed?queue=${encodeURIComponent(queue)}`,
  action: 'See its failed jobs',
});

const failing: QueueMark = { kind: 'failing', failures: 1, minutes: 15, latestError: 'boom' };

function judged(now: number, marks: readonly QueueMark[], queue = 'mail'): JudgedQueues {
  return { now, queues: [{ queue, marks }] };
}

function rules(url: string, format: WebhookFormat = 'json', repeatMinutes = 15): NoticeRules {
  return { webhooks: [{ url, format, queues: null, marks: null }], repeatMinutes };
}

describe('AlertSender', () => {
  it('sends nothing while a mark is silenced, and sends it once the silence is lifted', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const prefix = `${queue.keys.prefix}ql:`;
    const sender = new AlertSender({
      connection: { name: 'main', notify: rules(hook.url('/hook')) },
      dashboardPrefix: prefix,
      leaseMs: 5_000,
      describe: describe_,
      publicUrl: null,
      log: () => undefined,
    });
    const keys = alertKeys(dashboardKeys(prefix), 'main');
    await silenceMark(queue, keys, 'mail', 'failing', 2_000);
    await sender.tick(queue, judged(1_000, [failing]));
    await sender.tick(queue, judged(1_005, [failing]));
    expect(hook.received).toEqual([]);
    // Silenced failing only: another mark of the queue is not.
    const stuck: QueueMark = { kind: 'stuck', claims: 1, holders: ['w1'], ranOutAt: 900 };
    await sender.tick(queue, judged(1_010, [failing, stuck]));
    expect(hook.received.map(({ body }) => [body.mark, body.state])).toEqual([['stuck', 'started']]);
    // The silence ends at 2,000: the mark still on is sent then.
    await sender.tick(queue, judged(2_000, [failing, stuck]));
    expect(hook.received.map(({ body }) => [body.mark, body.state])).toEqual([
      ['stuck', 'started'],
      ['failing', 'started'],
    ]);
  });

  it('sends a flapping mark’s start at most once per repeat interval, and a clear for every start sent', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const sender = new AlertSender({
      connection: { name: 'main', notify: rules(hook.url('/hook'), 'json', 1) },
      dashboardPrefix: `${queue.keys.prefix}ql:`,
      leaseMs: 5_000,
      describe: describe_,
      publicUrl: 'https://queues.example.com/ql',
      log: () => undefined,
    });
    // On, off, on, off, on within a minute; still on a minute after the first start.
    const steps: [number, QueueMark[]][] = [
      [1_000, [failing]],
      [1_010, []],
      [1_020, [failing]],
      [1_030, []],
      [1_040, [failing]],
      [1_050, [failing]],
      [1_060, [failing]],
      [1_070, [failing]],
    ];
    for (const [now, marks] of steps) await sender.tick(queue, judged(now, marks));
    expect(hook.received.map(({ body }) => [body.state, body.at])).toEqual([
      ['started', new Date(1_000_000).toISOString()],
      ['cleared', new Date(1_010_000).toISOString()],
      ['started', new Date(1_060_000).toISOString()],
    ]);
    expect(hook.received[0]!.body).toMatchObject({
      connection: 'main',
      queue: 'mail',
      mark: 'failing',
      title: 'Failing',
      detail: '1 failures',
      url: 'https://queues.example.com/ql/failed?queue=mail&connection=main',
    });
  });

  it('posts Slack’s and Teams’ incoming-webhook bodies, and records a webhook that refuses', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const prefix = `${queue.keys.prefix}ql:`;
    const notify: NoticeRules = {
      webhooks: [
        { url: hook.url('/slack'), format: 'slack', queues: ['<b>mail</b>'], marks: null },
        { url: hook.url('/teams'), format: 'teams', queues: null, marks: ['failing'] },
        { url: hook.url('/broken'), format: 'json', queues: null, marks: ['stuck'] },
      ],
      repeatMinutes: 15,
    };
    const logged: string[] = [];
    const sender = new AlertSender({
      connection: { name: 'main', notify },
      dashboardPrefix: prefix,
      leaseMs: 5_000,
      describe: describe_,
      publicUrl: 'https://q.example.com',
      log: (level, message) => logged.push(`${level} ${message}`),
    });
    const stuck: QueueMark = { kind: 'stuck', claims: 1, holders: ['w1'], ranOutAt: 900 };
    await sender.tick(queue, {
      now: 1_000,
      queues: [
        { queue: '<b>mail</b>', marks: [failing] },
        { queue: 'other', marks: [stuck] },
      ],
    });
    const byPath = new Map(hook.received.map(({ path, body }) => [path, body]));
    expect(byPath.get('/slack')).toEqual({
      text: '*Failing: &lt;b&gt;mail&lt;/b&gt; on main*\n1 failures\n<https://q.example.com/failed?queue=%3Cb%3Email%3C%2Fb%3E&amp;connection=main|See its failed jobs>',
    });
    expect(byPath.get('/teams')).toMatchObject({
      type: 'message',
      attachments: [
        {
          contentType: 'application/vnd.microsoft.card.adaptive',
          content: {
            type: 'AdaptiveCard',
            body: [{ text: 'Failing: <b>mail</b> on main' }, { text: '1 failures' }],
            actions: [{ type: 'Action.OpenUrl', url: 'https://q.example.com/failed?queue=%3Cb%3Email%3C%2Fb%3E&connection=main' }],
          },
        },
      ],
    });
    expect(byPath.get('/broken')).toMatchObject({ queue: 'other', mark: 'stuck', state: 'started' });
    expect(hook.received).toHaveLength(3);
    const recent = await readRecentNotices(queue, alertKeys(dashboardKeys(prefix), 'main'), 10);
    const port = new URL(hook.url('/')).host;
    expect(recent.map(({ queue: name, kind, webhooks, failures }) => ({ name, kind, webhooks, failures }))).toEqual([
      { name: 'other', kind: 'stuck', webhooks: 1, failures: [`${port} answered HTTP 500`] },
      { name: '<b>mail</b>', kind: 'failing', webhooks: 2, failures: [] },
    ]);
    expect(logged).toEqual(['warn an alert webhook failed']);
  });

  it('sends once across two instances, and the other takes over without resending when the holder stops renewing', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const prefix = `${queue.keys.prefix}ql:`;
    const make = (token: string) =>
      new AlertSender({
        connection: { name: 'main', notify: rules(hook.url('/hook')) },
        dashboardPrefix: prefix,
        leaseMs: 400,
        describe: describe_,
        publicUrl: null,
        log: () => undefined,
        token,
      });
    const [first, second] = [make('instance-a'), make('instance-b')];
    const ticks = await Promise.all([first.tick(queue, judged(1_000, [failing])), second.tick(queue, judged(1_000, [failing]))]);
    expect(ticks.map((tick) => tick.holds).sort()).toEqual([false, true]);
    const holder = ticks[0]!.holds ? first : second;
    const standby = holder === first ? second : first;
    expect(hook.received).toHaveLength(1);
    // Both keep ticking: still one.
    await Promise.all([holder.tick(queue, judged(1_005, [failing])), standby.tick(queue, judged(1_005, [failing]))]);
    expect(hook.received).toHaveLength(1);

    // The holder is killed: it stops ticking without releasing its lease. The other takes over once the lease runs out…
    expect(await standby.tick(queue, judged(1_010, [failing]))).toEqual({ holds: false });
    const takenOver = await waitFor(async () => {
      const tick = await standby.tick(queue, judged(1_011, [failing]));
      return tick.holds ? tick : (await sleep(50), undefined);
    }, 3_000);
    // …without sending the start again, and sends the clear.
    expect(takenOver).toEqual({ holds: true, sent: [] });
    await standby.tick(queue, judged(1_020, []));
    expect(hook.received.map(({ body }) => body.state)).toEqual(['started', 'cleared']);
  });

  it('leaves a queue whose keys could not be read as it was, and clears the marks of a queue that is gone', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const sender = new AlertSender({
      connection: { name: 'main', notify: rules(hook.url('/hook')) },
      dashboardPrefix: `${queue.keys.prefix}ql:`,
      leaseMs: 5_000,
      describe: describe_,
      publicUrl: null,
      log: () => undefined,
    });
    await sender.tick(queue, judged(1_000, [failing]));
    await sender.tick(queue, { now: 1_005, queues: [{ queue: 'mail', marks: [], error: 'WRONGTYPE' }] });
    expect(hook.received).toHaveLength(1);
    await sender.tick(queue, { now: 1_010, queues: [] });
    expect(hook.received.map(({ body }) => body.state)).toEqual(['started', 'cleared']);
  });
});

describe('alerts from the sampler', () => {
  it('sends a queue’s failing mark once when a job fails, and once when its failure is forgotten', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    // Each test's connection has a name of its own: the overview's ticks are kept per connection name for the whole process.
    const connection: Connection = {
      name: 'sampled-failing',
      label: 'sampled-failing',
      settings: queue.settings,
      layout: { layout: 'staticphp' },
      readOnly: false,
      alerts: NO_ALERTS,
      marks: DEFAULT_MARKS,
      notify: { webhooks: [{ url: hook.url('/hook'), format: 'json', queues: ['mail'], marks: null }], repeatMinutes: 15 },
    };
    const sampling = startSampling({
      connections: [connection],
      dashboardPrefix: `${queue.keys.prefix}ql:`,
      intervalMs: 250,
      log: () => undefined,
      alerts: { describe: describe_, publicUrl: null },
    });
    try {
      await queue.push('mail', 'send', {});
      await queue.push('other', 'send', {});
      await sleep(1_000);
      expect(hook.received).toEqual([]);
      const job = await queue.reserve(['mail'], 'worker-1', 60);
      await queue.fail(job!, 'SMTP refused');
      const other = await queue.reserve(['other'], 'worker-1', 60);
      // Another queue's failure is not this webhook's.
      await queue.fail(other!, 'boom');
      await waitFor(async () => (hook.received.length > 0 ? true : undefined));
      // Several ticks later, still the one notice.
      await sleep(1_000);
      expect(hook.received.map(({ body }) => [body.queue, body.mark, body.state])).toEqual([['mail', 'failing', 'started']]);
      await queue.forgetFailedIds([job!.id]);
      await waitFor(async () => (hook.received.length > 1 ? true : undefined));
      await sleep(1_000);
      expect(hook.received.map(({ body }) => [body.queue, body.mark, body.state])).toEqual([
        ['mail', 'failing', 'started'],
        ['mail', 'failing', 'cleared'],
      ]);
    } finally {
      await sampling.stop();
    }
  });

  it('goes on sampling while a webhook takes its time to answer', async () => {
    const queue = await openQueue();
    const hook = await receiver();
    const dashboardPrefix = `${queue.keys.prefix}ql:`;
    const sampling = startSampling({
      connections: [
        {
          name: 'sampled-slow-hook',
          label: 'sampled-slow-hook',
          settings: queue.settings,
          layout: { layout: 'staticphp' },
          readOnly: false,
          alerts: NO_ALERTS,
          marks: DEFAULT_MARKS,
          notify: { webhooks: [{ url: hook.url('/held'), format: 'json', queues: null, marks: null }], repeatMinutes: 15 },
        },
      ],
      dashboardPrefix,
      intervalMs: 250,
      log: () => undefined,
      alerts: { describe: describe_, publicUrl: null },
    });
    const series = throughputKeys(dashboardKeys(dashboardPrefix), queue.keys.prefix).series('5s', 'mail');
    try {
      await queue.push('mail', 'send', {});
      const job = await queue.reserve(['mail'], 'worker-1', 60);
      await queue.fail(job!, 'SMTP refused');
      await waitFor(async () => (hook.received.length > 0 ? true : undefined));
      const before = await queue.redis.xlen(series);
      // The webhook has not answered (it would time out after 5 s): the sampler's points keep coming meanwhile.
      await waitFor(async () => ((await queue.redis.xlen(series)) >= before + 2 ? true : undefined), 3_000);
      expect(hook.received).toHaveLength(1);
      hook.release();
      expect((await readHistory(queue.redis, throughputKeys(dashboardKeys(dashboardPrefix), queue.keys.prefix), 'mail', '15m')).length).toBeGreaterThan(0);
    } finally {
      await sampling.stop();
    }
  });
});
