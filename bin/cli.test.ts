import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { testQueueFactory } from '../lib/layouts/staticphp/test-redis';

const openQueue = testQueueFactory();

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

function queuelens(...args: string[]): Promise<Outcome> {
  return queuelensWith(process.env, ...args);
}

const CLI = fileURLToPath(new URL('queuelens.js', import.meta.url));

function queuelensWith(env: NodeJS.ProcessEnv, ...args: string[]): Promise<Outcome> {
  return queuelensIn(process.cwd(), env, ...args);
}

function queuelensIn(cwd: string, env: NodeJS.ProcessEnv, ...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile('node', [CLI, ...args], { env, cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('queuelens', () => {
  it('refuses to serve other machines without a long secret and the origins operators use', async () => {
    const env = { ...process.env };
    for (const name of ['QUEUELENS_SECRET', 'QUEUELENS_VIEWER_SECRET', 'QUEUELENS_ORIGINS']) delete env[name];
    const bare = await queuelensWith(env, 'serve', '--host', '0.0.0.0', '--port', '3999');
    expect(bare).toMatchObject({ code: 1, stdout: '' });
    expect(bare.stderr).toMatch(/QueueLens needs a secret: set QUEUELENS_SECRET/);
    const short = await queuelensWith({ ...env, QUEUELENS_SECRET: 'hunter2' }, 'serve', '--host', '192.168.1.10', '--port', '3999');
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/Refusing to listen on 192\.168\.1\.10, which other machines can reach: QUEUELENS_SECRET is shorter than 32 bytes/);
    const noOrigins = await queuelensWith({ ...env, QUEUELENS_SECRET: 'y'.repeat(40) }, 'serve', '--host', '::', '--port', '3999');
    expect(noOrigins.stderr).toMatch(/without QUEUELENS_ORIGINS/);
  });

  it('takes -H and -p as next start does', async () => {
    const env = { ...process.env };
    for (const name of ['QUEUELENS_SECRET', 'QUEUELENS_VIEWER_SECRET', 'QUEUELENS_ORIGINS']) delete env[name];
    const short = await queuelensWith({ ...env, QUEUELENS_SECRET: 'hunter2' }, 'serve', '-H', '192.168.1.10', '-p', '3999');
    expect(short.stderr).toMatch(/Refusing to listen on 192\.168\.1\.10, which other machines can reach/);
    const badPort = await queuelensWith(env, 'serve', '-H', '127.0.0.1', '-p', '-3');
    expect(badPort).toMatchObject({ code: 2, stderr: expect.stringContaining('--port takes a whole number of at least 1, got "-3"') });
  });

  it('runs from any directory', async () => {
    const queue = await openQueue();
    await queue.push('mail', 'demo.noop', {});
    const status = await queuelensIn(tmpdir(), process.env, 'status', '--json', '--prefix', queue.keys.prefix);
    expect(status).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(status.stdout)).toEqual({ queues: [{ queue: 'mail', pending: 1, delayed: 0, reserved: 0, total: 1 }], failed: 0 });
    expect(await queuelensIn(tmpdir(), process.env, 'doctor', '--prefix', queue.keys.prefix)).toEqual({ code: 0, stdout: 'No problems found.\n', stderr: '' });
  });

  it('says which Redis and prefix it read, and where the queues are when that prefix holds none', async () => {
    const [queue, empty] = [await openQueue(), await openQueue()];
    await queue.push('mail', 'demo.noop', {});
    const read = await queuelens('status', '--prefix', queue.keys.prefix);
    expect(read.stdout.split('\n')[0]).toBe(`Read StaticPHP QueueRedis, prefix ${queue.keys.prefix} on redis 127.0.0.1:6379.`);
    const failed = await queuelens('failed', '--prefix', queue.keys.prefix);
    expect(failed.stdout).toBe(`Read StaticPHP QueueRedis, prefix ${queue.keys.prefix} on redis 127.0.0.1:6379.\nNo failed jobs.\n`);
    const elsewhere = await queuelens('status', '--prefix', empty.keys.prefix);
    expect(elsewhere.stdout).toContain(`Read StaticPHP QueueRedis, prefix ${empty.keys.prefix} on redis 127.0.0.1:6379.\nNo jobs in any queue.\nfailed: 0\n`);
    // A shared test Redis holds many prefixes; the walk is bounded, so the hint names this one only when the walk reached it.
    expect(elsewhere.stdout).toMatch(/holds queues elsewhere; read them with:\n  queuelens status --layout /);
  });

  it('pushes the payload byte for byte, and only what a PHP worker can run', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    const payload = '{"id": 9007199254740993, "price": 1.0, "tags": ["a"] }';
    const pushed = await queuelens('push', 'mail', 'n', payload, ...prefix);
    expect(pushed).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await queue.redis.hget(queue.keys.job(1), 'payload')).toBe(payload);
    expect((await queuelens('push', 'mail', 'n', '[1,2]', ...prefix)).code).toBe(0);

    for (const [scalar, got] of [
      ['42', 'a number'],
      ['"text"', 'a string'],
      ['null', 'null'],
      ['true', 'a boolean'],
    ]) {
      const refused = await queuelens('push', 'mail', 'n', scalar!, ...prefix);
      expect(refused, scalar).toMatchObject({ code: 2, stdout: '' });
      expect(refused.stderr, scalar).toContain(
        `PAYLOAD_JSON must be a JSON object or array (a PHP worker decodes it to an array and fails anything else), got ${got}`,
      );
    }
    expect(await queue.redis.get(queue.keys.seq)).toBe('2');
  }, 90_000);

  it('pushes at a negative priority and at one beyond 2^53, as PHP writes them', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    expect(await queuelens('push', 'mail', 'n', '{}', '--priority', '-3', ...prefix)).toEqual({ code: 0, stdout: '1\n', stderr: '' });
    expect(await queue.redis.hget(queue.keys.job(1), 'priority')).toBe('-3');
    expect(await queue.redis.xlen(queue.keys.stream('mail', -3))).toBe(1);
    expect((await queuelens('push', 'mail', 'n', '{}', '--priority', '9007199254740993', ...prefix)).code).toBe(0);
    expect(await queue.redis.hget(queue.keys.job(2), 'priority')).toBe('9007199254740993');
    expect(await queue.redis.xlen(queue.keys.stream('mail', '9007199254740993'))).toBe(1);
    expect(await queue.redis.zrange(queue.keys.levels('mail'), 0, '-1')).toEqual(['-3', '9007199254740993']);

    expect(await queuelens('push', 'mail', 'n', '{}', '--priority', '1.5', ...prefix)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--priority takes a whole number'),
    });
    const tooBig = await queuelens('push', 'mail', 'n', '{}', '--priority', '9223372036854775808', ...prefix);
    expect(tooBig).toMatchObject({ code: 1, stderr: expect.stringContaining('(a PHP integer)') });
    expect(await queue.redis.get(queue.keys.seq)).toBe('2');
  }, 90_000);

  it('pushes, lists failed jobs, retries and forgets them', async () => {
    const queue = await openQueue();
    const prefix = ['--prefix', queue.keys.prefix];
    expect(await queuelens('push', 'mail', 'demo.fail', '{"to":"a@example.com"}', '--priority', '3', '--max-attempts', '1', ...prefix)).toEqual({
      code: 0,
      stdout: '1\n',
      stderr: '',
    });
    expect((await queuelens('push', 'mail', 'demo.noop', '{}', '--delay', '600', '--unique', 'u1', ...prefix)).stdout).toBe('2\n');
    expect((await queuelens('push', 'mail', 'demo.noop', '{}', '--unique', 'u1', ...prefix)).stdout).toBe('2\n');
    expect(JSON.parse((await queuelens('status', '--json', ...prefix)).stdout)).toEqual({
      queues: [{ queue: 'mail', pending: 1, delayed: 1, reserved: 0, total: 2 }],
      failed: 0,
    });

    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'SMTP said no\nstack line');
    const table = await queuelens('failed', ...prefix);
    expect(table.stdout).toMatch(
      /^Read StaticPHP QueueRedis, prefix \S+ on redis \S+\.\nid\s+queue\s+name\s+attempts\s+failed_at \(UTC\)\s+error\n1\s+mail\s+demo\.fail\s+1\/1\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s+SMTP said no\n$/,
    );
    const rows = JSON.parse((await queuelens('failed', '--json', '--limit', '5', ...prefix)).stdout);
    expect(rows).toMatchObject([{ id: 1, queue: 'mail', name: 'demo.fail', error: 'SMTP said no\nstack line' }]);

    expect((await queuelens('retry', '--id', '1', '--id', '2', '--max-attempts', '4', ...prefix)).stdout).toBe('Retried 1 job; not failed (skipped): 2\n');
    expect(await queue.redis.hget(queue.keys.job(1), 'max_attempts')).toBe('4');
    await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, 'again');
    // The trash under the test's own prefix, so that its cleanup deletes it too.
    const env = { ...process.env, QUEUELENS_PREFIX: `${queue.keys.prefix}ql:`, USER: 'cli-tester' };
    expect((await queuelensWith(env, 'forget', '--before', '2999-01-01', ...prefix)).stdout).toBe('Forgot 1 failed job\n');
    expect((await queuelensWith(env, 'forget', '--all', ...prefix)).stdout).toBe('Forgot 0 failed jobs\n');

    const listed = await queuelensWith(env, 'trash', 'list', ...prefix);
    expect(listed.stdout).toMatch(/^1 job in the trash \(\d+ of at most 67108864 bytes\)\n1\tdemo\.fail\tfailed of mail\tby cli-tester \(cli\)\t/);
    expect((await queuelensWith(env, 'trash', 'list', '--from', 'ready', ...prefix)).stdout).toMatch(/^0 jobs in the trash /);
    expect((await queuelensWith(env, 'trash', 'list', '--queue-contains', 'ma', '--who', 'cli-', ...prefix)).stdout).toMatch(/^1 job in the trash /);
    expect(await queuelensWith(env, 'trash', 'list', '--from', 'nowhere', ...prefix)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--from must be one of failed, ready, delayed, reserved'),
    });
    expect(await queuelensWith(env, 'trash', 'restore', '1', '7', ...prefix)).toEqual({
      code: 1,
      stdout: 'Restored 1 job\n',
      stderr: 'Job 7 is not in the trash: it expired, was restored already, or was never kept\n',
    });
    expect(await queue.redis.hget(queue.keys.job(1), 'error')).toBe('again');
    expect(await queue.failedCount()).toBe(1);
    expect((await queuelensWith(env, 'trash', 'list', '--json', ...prefix)).stdout).toContain('"total":0');

    expect(await queuelensWith(env, 'retry', '--id', '1', '--payload', '"a string"', ...prefix)).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('The payload must be a JSON object or array'),
    });
    expect(await queuelensWith(env, 'retry', '--id', '1', '--payload', '{"to": "b@example.com"}', ...prefix)).toEqual({
      code: 0,
      stdout: 'Retried job 1 with the given payload; the job as it was is in the trash (queuelens trash list)\n',
      stderr: '',
    });
    expect(await queue.redis.hget(queue.keys.job(1), 'payload')).toBe('{"to": "b@example.com"}');
    expect((await queuelensWith(env, 'trash', 'list', ...prefix)).stdout).toMatch(
      /^1 job in the trash \(\d+ of at most 67108864 bytes\)\n1\tdemo\.fail\tfailed of mail\tby cli-tester/,
    );
    // Sixteen CLI processes, each compiling the CLI (tsx): 62 s alone at load 10, past 90 s beside the rest of the suite.
  }, 180_000);

  it('takes failed --limit 0 as PHP does: its failedRows floors the limit at 1, so the newest failed job is listed', async () => {
    const queue = await openQueue();
    for (const name of ['older', 'newer']) {
      await queue.push('mail', name, {});
      await queue.fail((await queue.reserve(['mail'], 'h:1', 30))!, `${name} failed`);
    }
    // Distinct scores: failures are scored by the second.
    await queue.redis.zadd(queue.keys.failed, 1_700_000_000, '1', 1_700_000_001, '2');
    const zero = await queuelens('failed', '--json', '--limit', '0', '--prefix', queue.keys.prefix);
    expect(zero).toMatchObject({ code: 0, stderr: '' });
    expect(JSON.parse(zero.stdout)).toEqual([expect.objectContaining({ id: 2, name: 'newer' })]);
    expect(await queuelens('failed', '--limit', '-1', '--prefix', queue.keys.prefix)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--limit takes a whole number of at least 0, got "-1"'),
    });
  });

  it('exits 2 with a usage line on bad usage', async () => {
    for (const args of [
      [],
      ['nonsense'],
      ['push', 'q'],
      ['push', 'q', 'n', '{bad json'],
      ['retry'],
      ['retry', '--id', '1', '--all'],
      ['retry', '--id', '1', '--id', '2', '--payload', '{}'],
      ['forget'],
      ['forget', '--id', '1', '--all'],
      ['trash'],
      ['trash', 'restore'],
      ['failed', '--limit', 'ten'],
      ['status', '--bogus'],
      ['work'],
    ]) {
      const outcome = await queuelens(...args);
      expect(outcome.code, args.join(' ')).toBe(2);
      expect(outcome.stdout + outcome.stderr, args.join(' ')).toMatch(/Usage: queuelens|Run queuelens --help/);
    }
    // Thirteen CLI starts in a row, each compiling the CLI with tsx: a few seconds apiece on a loaded machine.
  }, 120_000);

  it('exits 1 with one line and no stack trace when Redis cannot be reached or refuses', async () => {
    const unreachable = await queuelens('status', '--redis-url', 'redis://127.0.0.1:1');
    expect(unreachable).toEqual({ code: 1, stdout: '', stderr: expect.stringMatching(/^queuelens: Could not reach redis at 127\.0\.0\.1:1 \([^\n]*\)\n$/) });

    const queue = await openQueue();
    const badDate = await queuelens('forget', '--before', 'last tuesday', '--prefix', queue.keys.prefix);
    expect(badDate).toEqual({ code: 1, stdout: '', stderr: 'queuelens: Cannot read the date "last tuesday": expected Y-m-d or Y-m-d H:i:s, in UTC\n' });
  });

  it('finds jobs by a piece of their payload in every state, a line per match, scoped by --state and --queue, in any case with --ignore-case', async () => {
    const queue = await openQueue();
    const ready = await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-12345' });
    const delayed = await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-12345' }, { delaySeconds: 3600 });
    await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-99' });
    const all = await queuelens('find', 'order-12345', '--prefix', queue.keys.prefix);
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout).toContain(`${ready}\tready\tmail\tApp\\Jobs\\Ship\tpayload: {"order":"[order-12345]"}`);
    expect(all.stdout).toContain(`${delayed}\tdelayed\tmail`);
    expect(all.stdout).toMatch(/^2 matches\.$/m);
    const scoped = await queuelens('find', 'order-12345', '--state', 'delayed', '--queue', 'mail', '--json', '--prefix', queue.keys.prefix);
    expect(
      scoped.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual([String(delayed)]);
    const shouted = await queue.push('mail', 'App\\Jobs\\Ship', { note: 'Order ACME-42' });
    const anyCase = await queuelens('find', 'acme-42', '--ignore-case', '--prefix', queue.keys.prefix);
    expect(anyCase.stdout).toContain(`${shouted}\tready\tmail\tApp\\Jobs\\Ship\tpayload: {"note":"Order [ACME-42]"}`);
    expect(anyCase.stdout).toMatch(/^1 match\.$/m);
    expect((await queuelens('find', 'acme-42', '--prefix', queue.keys.prefix)).stdout).toMatch(/^No job matches\.$/m);
    expect(await queuelens('find', 'x', '--state', 'lost', '--prefix', queue.keys.prefix)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--state takes ready, delayed, reserved, failed, not "lost"'),
    });
  });

  it('finds only the jobs whose state’s time is within --since and --until, says what the range applies to, and refuses a time it cannot read', async () => {
    const queue = await openQueue();
    const ready = await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-777' });
    const delayed = await queue.push('mail', 'App\\Jobs\\Ship', { order: 'order-777' }, { delaySeconds: 7200 });
    // An hour from now: after the ready job joined the line, before the delayed one is due.
    const inAnHour = new Date(Date.now() + 3_600_000).toISOString().slice(0, 19) + 'Z';
    const since = await queuelens('find', 'order-777', '--since', inAnHour, '--prefix', queue.keys.prefix);
    expect(since).toMatchObject({ code: 0, stderr: '' });
    expect(since.stdout).toMatch(/^The time range applies to ready \(when it joined the line\), delayed \(when it is due\)/m);
    expect(since.stdout).toContain(`${delayed}\tdelayed\tmail`);
    expect(since.stdout).not.toContain(`${ready}\tready`);
    const until = await queuelens('find', 'order-777', '--until', inAnHour, '--json', '--prefix', queue.keys.prefix);
    expect(
      until.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id),
    ).toEqual([String(ready)]);
    expect(await queuelens('find', 'x', '--since', '2026-12-05 12:00', '--prefix', queue.keys.prefix)).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--since takes a UTC time such as 2026-12-05T12:00Z'),
    });
  });
});
