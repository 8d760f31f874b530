import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { expect, test } from './test';
import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';
import { withSpecKeys, type SpecKeys } from './spec-keys';
import { APP_PORT, e2eSecrets } from './support';

/** The size of the values the probe of issue 24 downloaded twenty at once. */
const LARGE = 20 * 1024 * 1024;

interface Download {
  /** settles with the status and headers once the answer's head has arrived */
  head: Promise<IncomingMessage>;
  /** stops reading: the client goes away */
  leave: () => void;
}

/**
 * GET `path` with a bearer secret through a socket of its own. A slow
 * reader takes the head and then reads nothing (its answer stalls in the
 * sockets' buffers, which 20 MB overflows); otherwise the body is read and
 * thrown away as fast as it comes.
 */
function download(path: string, secret: string, { slow }: { slow: boolean }): Download {
  const sent: ClientRequest = httpRequest({ host: '127.0.0.1', port: APP_PORT, path, agent: false, headers: { authorization: `Bearer ${secret}` } });
  const head = new Promise<IncomingMessage>((resolve, reject) => {
    sent.on('response', (response) => {
      if (slow) response.pause();
      else response.resume();
      resolve(response);
    });
    sent.on('error', reject);
  });
  head.catch(() => {});
  sent.end();
  return { head, leave: () => sent.destroy() };
}

async function jsonOf(response: IncomingMessage): Promise<unknown> {
  let body = '';
  for await (const chunk of response) body += String(chunk);
  return JSON.parse(body);
}

test.describe('large reads (issue 24)', () => {
  let queue: RedisQueue;
  let keys: SpecKeys;
  const open: Download[] = [];
  withSpecKeys((opened) => ({ queue, keys } = opened));

  // Every client leaves, and the server has given their places back: four large reads at once are let in again.
  test.afterEach(async () => {
    for (const sent of open.splice(0)) sent.leave();
    const { operator, viewer } = e2eSecrets();
    const id = await keys.takeId();
    const statuses = () =>
      Promise.all(
        [viewer, viewer, operator, operator].map(async (secret) => (await download(`/api/jobs/${id}/fields/none`, secret, { slow: false }).head).statusCode),
      );
    await expect.poll(statuses, { timeout: 10_000 }).toEqual([404, 404, 404, 404]);
  });

  test('past two at once per session and four per server a download is answered 429 with Retry-After, and a place comes free when its client leaves', async ({
    request,
  }) => {
    const { operator, viewer } = e2eSecrets();
    const id = await keys.takeId();
    await queue.redis.hset(queue.keys.job(id), 'payload', Buffer.alloc(LARGE, 'x'));
    // Distinct query strings, as the probe sent them: one line of the burst admission, let in half a second apart while the answers stall.
    const field = (n: number) => `/api/jobs/${id}/fields/payload?n=${n}`;
    const slowly = (n: number, secret: string) => {
      const sent = download(field(n), secret, { slow: true });
      open.push(sent);
      return sent.head;
    };

    expect((await slowly(1, viewer)).statusCode).toBe(200);
    expect((await slowly(2, viewer)).statusCode).toBe(200);
    const third = await slowly(3, viewer);
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toBe('2');
    expect(await jsonOf(third)).toEqual({
      ok: false,
      error: expect.stringMatching(/^Too many large reads at once .*: you already have 2 under way\. Try again in a moment\.$/),
    });

    expect((await slowly(4, operator)).statusCode).toBe(200);
    expect((await slowly(5, operator)).statusCode).toBe(200);
    // The signed-in session has none under way, but the server has its four.
    const sessions = await request.get(field(6));
    expect(sessions.status()).toBe(429);
    expect(sessions.headers()['retry-after']).toBe('2');
    expect(await sessions.json()).toEqual({ ok: false, error: expect.stringContaining('the server already has 4 under way') });
    // A key's contents take whole values too (the job hash's 20 MB payload among them).
    expect((await request.get(`/api/layout/key?name=${encodeURIComponent(queue.keys.job(id))}`)).status()).toBe(429);

    open[0]!.leave();
    await expect.poll(async () => (await request.get(`/api/jobs/${id}/fields/error`)).status(), { timeout: 10_000 }).toBe(404);
    const whole = await request.get(field(7));
    expect(whole.status()).toBe(200);
    expect((await whole.body()).length).toBe(LARGE);
  });

  test('a HEAD of a download, and an answer read to its end, give their places back', async ({ request }) => {
    const id = await keys.takeId();
    await queue.redis.hset(queue.keys.job(id), 'payload', Buffer.alloc(1024 * 1024, 'z'));
    const headers = { authorization: `Bearer ${e2eSecrets().viewer}` };
    for (let n = 0; n < 3; n++) expect((await request.head(`/api/jobs/${id}/fields/payload`, { headers })).status()).toBe(200);
    for (let n = 0; n < 3; n++) expect((await request.get(`/api/jobs/${id}/fields/payload`, { headers })).status()).toBe(200);
  });

  test('a poll is answered while large reads are under way: it does not wait behind their replies', async () => {
    const { operator, viewer } = e2eSecrets();
    const id = await keys.takeId();
    const fields = ['a', 'b', 'c', 'd'];
    const value = Buffer.alloc(LARGE, 'y');
    await queue.redis.hset(queue.keys.job(id), ...fields.flatMap((name) => [name, value]));

    const events: string[] = [];
    const downloads = fields.map((name, index) => {
      const sent = download(`/api/jobs/${id}/fields/${name}`, index < 2 ? viewer : operator, { slow: false });
      open.push(sent);
      return sent.head.then((response) => {
        events.push(`download ${response.statusCode}`);
        return response;
      });
    });
    // Once the first value has come from Redis, the other three have been asked for and are on their way.
    await Promise.race(downloads);
    const poll = await fetch(`http://127.0.0.1:${APP_PORT}/api/health`, { headers: { authorization: `Bearer ${operator}` } });
    events.push(`poll ${poll.status}`);
    await Promise.all(downloads);
    expect(events.filter((event) => event.startsWith('download'))).toEqual(['download 200', 'download 200', 'download 200', 'download 200']);
    // Behind the same Redis client, the poll's PING would be answered after every value's reply.
    expect(events.indexOf('poll 200')).toBeGreaterThan(-1);
    expect(events.indexOf('poll 200')).toBeLessThan(events.length - 1);
  });
});
