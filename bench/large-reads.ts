/**
 * The outside probe's scenario of issue 24 (point 1): twenty downloads of one
 * 20 MB job field, each with its own query string, read slowly (curl
 * --limit-rate) by two clients (the viewer's secret and the operator's, in
 * turn, so that the server's limit is met as well as each client's), while
 * another client polls /api/health and /api/overview once a second. On a redis-server of its own, against the production build
 * as `queuelens serve` runs it (`npm run build` first: this script does not
 * build). Prints the other client's answers (worst status and latency of
 * each route), how the downloads were answered, and the server's resident
 * memory before and at its peak. Asserts nothing.
 * BENCH_LARGE_READS_DOWNLOADS, BENCH_LARGE_READS_RATE (curl's --limit-rate)
 * and BENCH_LARGE_READS_SECONDS (how long the downloads may run) change it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../lib/redis/config';
import { RedisQueue } from '../lib/layouts/staticphp/redis-queue';
import { startPrivateRedis } from './private-redis';
import { atExit, freeBenchPort } from './processes';
import { describeMachine, markdownTable } from './report';
import { startServedApp } from './served-app';

const root = fileURLToPath(new URL('..', import.meta.url));
const PREFIX = `bench-large:${randomBytes(4).toString('hex')}:`;
const FIELD_BYTES = 20 * 1024 * 1024;
const DOWNLOADS = Number(process.env.BENCH_LARGE_READS_DOWNLOADS ?? 20);
const RATE = process.env.BENCH_LARGE_READS_RATE ?? '2M';
const SECONDS = Number(process.env.BENCH_LARGE_READS_SECONDS ?? 20);
const POLL_MS = 1_000;
const POLLED = ['/api/health', '/api/overview'] as const;

interface Answer {
  status: number;
  ms: number;
}

/** GET `url` and read the whole answer; status 0 when none came. */
async function timedGet(url: string, headers: Record<string, string>): Promise<Answer> {
  const started = performance.now();
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(30_000) });
    await response.arrayBuffer();
    return { status: response.status, ms: performance.now() - started };
  } catch {
    return { status: 0, ms: performance.now() - started };
  }
}

/** A slow reader: curl at RATE, for at most SECONDS; resolves with the HTTP status it got (0: none). */
function slowDownload(url: string, secret: string): Promise<number> {
  return new Promise((resolve) => {
    const curl = spawn('curl', [
      '-s',
      '-o',
      '/dev/null',
      '-w',
      '%{http_code}',
      '--limit-rate',
      RATE,
      '--max-time',
      String(SECONDS),
      '-H',
      `Authorization: Bearer ${secret}`,
      url,
    ]);
    let out = '';
    curl.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    curl.on('close', () => resolve(Number(out.trim()) || 0));
  });
}

/** Polls each of POLLED once every POLL_MS until `stop` settles; every answer of each route. */
async function pollUntil(baseUrl: string, headers: Record<string, string>, stop: Promise<unknown>): Promise<Map<string, Answer[]>> {
  const answers = new Map<string, Answer[]>(POLLED.map((path) => [path, []]));
  let stopped = false;
  void stop.then(() => (stopped = true));
  const polls: Promise<void>[] = [];
  while (!stopped) {
    for (const path of POLLED) polls.push(timedGet(`${baseUrl}${path}`, headers).then((answer) => void answers.get(path)!.push(answer)));
    await Promise.race([stop, new Promise((resolve) => setTimeout(resolve, POLL_MS))]);
  }
  await Promise.all(polls);
  return answers;
}

const worst = (answers: readonly Answer[]) =>
  answers.reduce((a, b) => (b.status !== 200 && a.status === 200 ? b : b.status === 200 && a.status !== 200 ? a : b.ms > a.ms ? b : a));
function counted(statuses: readonly number[]): string {
  const counts = new Map<number, number>();
  for (const status of statuses) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, count]) => `${count}× ${status || 'no answer'}`).join(', ');
}
const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const loads = () =>
  loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');

async function main(): Promise<void> {
  if (!existsSync(join(root, '.next', 'standalone', 'server.js'))) throw new Error('No production build: run npm run build first');
  const workDir = mkdtempSync(join(tmpdir(), 'queuelens-bench-large-reads-'));
  atExit(() => rmSync(workDir, { recursive: true, force: true }));
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    console.log(
      `\nLarge reads (issue 24): ${DOWNLOADS} downloads of a ${mib(FIELD_BYTES)} field at ${RATE}/s, ${describeMachine()}; load average ${loads()}\n`,
    );
    const redis = await startPrivateRedis(workDir);
    cleanups.push(() => redis.stop());
    const queue = await RedisQueue.connect(readSettings({ hostname: '127.0.0.1', port: redis.port, prefix: PREFIX }));
    cleanups.push(() => queue.close());
    const id = await queue.push('bench', 'App\\Jobs\\Big', { blob: randomBytes(FIELD_BYTES / 2).toString('hex') });

    const operator = randomBytes(32).toString('hex');
    const viewer = randomBytes(32).toString('hex');
    const appPort = await freeBenchPort(new Set([redis.port]));
    const app = await startServedApp(
      'queuelens serve',
      process.execPath,
      [join(root, 'bin', 'queuelens.js'), 'serve', '--host', '127.0.0.1', '--port', String(appPort)],
      {
        cwd: root,
        env: {
          ...process.env,
          NEXT_TELEMETRY_DISABLED: '1',
          REDIS_URL: redis.url(0),
          QUEUE_PREFIX: PREFIX,
          QUEUELENS_PREFIX: `${PREFIX}ql:`,
          QUEUELENS_SECRET: operator,
          QUEUELENS_VIEWER_SECRET: viewer,
        },
        port: appPort,
        logFile: join(workDir, 'server.log'),
        readyPath: '/api/health',
      },
    );
    cleanups.push(() => app.stop());
    const other = { authorization: `Bearer ${operator}` };
    // The first request of each route loads it; not what is measured.
    for (const path of POLLED) await timedGet(`${app.baseUrl}${path}`, other);
    const calm = await Promise.all(POLLED.map((path) => timedGet(`${app.baseUrl}${path}`, other)));
    const before = app.memory();

    const downloads = Promise.all(
      Array.from({ length: DOWNLOADS }, (_, n) => slowDownload(`${app.baseUrl}/api/jobs/${id}/fields/payload?n=${n + 1}`, n % 2 === 0 ? viewer : operator)),
    );
    const polled = await pollUntil(app.baseUrl, other, downloads);
    const statuses = await downloads;
    const after = app.memory();

    console.log(
      markdownTable(
        ['the other client polls', 'before, alone', 'answers during the downloads', 'worst'],
        'lrll',
        POLLED.map((path, index) => {
          const answers = polled.get(path)!;
          const bad = worst(answers);
          return [
            `\`GET ${path}\``,
            `${calm[index]!.status} in ${calm[index]!.ms.toFixed(0)} ms`,
            counted(answers.map((answer) => answer.status)),
            `${bad.status || 'no answer'} in ${bad.ms.toFixed(0)} ms`,
          ];
        }),
      ),
    );
    console.log(`\nThe downloads: ${counted(statuses)}`);
    console.log(`The server's resident memory: ${mib(before.rssBytes)} before, peak ${mib(after.peakBytes)}, ${mib(after.rssBytes)} after`);
    console.log(`Load average after: ${loads()}`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
