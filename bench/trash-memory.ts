/**
 * What QueueLens's trash costs in Redis memory per removed job, for the
 * layouts whose remove keeps one: yii2 (stock), marko and Laravel. Each
 * pushes N jobs with a 60-byte payload the way its driver writes them,
 * removes every one into a trash, and sums MEMORY USAGE of the trash's keys.
 * Run: npx tsx bench/trash-memory.ts [N] (default 1000), against the Redis
 * REDIS_URL names (settingsFromEnv), under a random prefix it deletes afterwards.
 */
import { randomUUID } from 'node:crypto';
import { settingsFromEnv } from '../lib/redis/config';
import { RedisConnection } from '../lib/redis/connection';
import { deleteKeysUnder } from '../lib/redis/scan-keys';
import type { TrashWrite } from '../lib/shapes/trash';
import { layoutTrashKeys } from '../lib/layouts/trash';
import { Yii2Keys } from '../lib/layouts/yii2/keys';
import { removeYii2Job, yii2TrashKeys } from '../lib/layouts/yii2/repairs';
import { DEFAULT_YII2_NG_SETTINGS } from '../lib/layouts/settings';
import { markoLayout } from '../lib/layouts/marko/layout';
import { MarkoTestWorker } from '../lib/layouts/marko/test-worker';
import { laravelLayout } from '../lib/layouts/laravel/layout';
import { lineRepairOrThrow } from '../lib/layouts/line-repairs';
import { isAbsent, type QueueLayout } from '../lib/layouts/adapter';
import type { TrashKeys } from '../lib/dashboard/keys';

const count = Number(process.argv[2] ?? 1000);
const PAYLOAD = JSON.stringify({ to: 'someone@example.com', subject: 'Your order 12345 shipped' });

async function memoryOf(connection: RedisConnection, keys: readonly string[]): Promise<number> {
  const pipeline = connection.redis.pipeline();
  for (const key of keys) pipeline.memory('USAGE', key);
  const replies = (await pipeline.exec()) ?? [];
  return replies.reduce((sum, [, bytes]) => sum + Number(bytes ?? 0), 0);
}

async function trashBytes(connection: RedisConnection, trash: TrashKeys, ids: readonly string[]): Promise<number> {
  return memoryOf(connection, [trash.index, ...ids.flatMap((id) => [trash.job(id), trash.where(id)])]);
}

function removeOf(layout: Pick<QueueLayout, 'lineRepairs'>) {
  if (isAbsent(layout.lineRepairs)) throw new Error(layout.lineRepairs.absent);
  return lineRepairOrThrow(layout.lineRepairs, 'remove');
}

async function main() {
  const connection = await RedisConnection.connect(settingsFromEnv());
  const root = `bench-trash-${randomUUID()}:`;
  const trash: TrashWrite = { dashboardPrefix: `${root}ql:`, keepSeconds: 3600, maxEntries: count * 2, maxBytes: 1 << 30, who: 'bench', via: 'cli' };
  const redis = connection.redis;
  try {
    // yii2 (stock): a message `<ttr>;<serialized job>` and its id in the waiting list.
    const yii2 = new Yii2Keys(`${root}yii2`);
    const yii2Ids: string[] = [];
    for (let n = 0; n < count; n++) {
      const id = String(await redis.incr(yii2.messageId));
      await redis.multi().hset(yii2.messages, id, `300;O:8:"MailJob":1:{s:4:"data";s:${PAYLOAD.length}:"${PAYLOAD}";}`).lpush(yii2.waiting, id).exec();
      yii2Ids.push(id);
    }
    const channel = { connection, driver: 'yii2' as const, keys: yii2, ng: DEFAULT_YII2_NG_SETTINGS };
    for (const id of yii2Ids) await removeYii2Job(channel, id, trash);
    report('yii2', await trashBytes(connection, yii2TrashKeys(yii2, trash.dashboardPrefix), yii2Ids));

    // marko: a job hash per id and the id in the ready list.
    const markoPrefix = `${root}marko:`;
    const marko = markoLayout(connection, { prefix: markoPrefix, retryAfter: null, queues: null });
    const worker = new MarkoTestWorker(redis, markoPrefix);
    const markoIds: string[] = [];
    for (let n = 0; n < count; n++) markoIds.push(await worker.push('mail', { className: 'App\\Jobs\\SendMail', data: { to: 'someone@example.com' } }));
    for (const id of markoIds) await removeOf(marko)('mail', id, trash);
    report('marko', await trashBytes(connection, layoutTrashKeys(markoPrefix, trash.dashboardPrefix), markoIds));

    // Laravel: the payload is the ready list's element.
    const laravelPrefix = `${root}laravel_database_`;
    const laravel = laravelLayout(connection, { prefix: laravelPrefix, horizonPrefix: null, queues: ['default'] });
    const laravelIds: string[] = [];
    for (let n = 0; n < count; n++) {
      const id = randomUUID();
      const payload = JSON.stringify({
        uuid: id,
        displayName: 'App\\Jobs\\SendMail',
        job: 'Illuminate\\Queue\\CallQueuedHandler@call',
        data: { command: PAYLOAD },
        id,
        attempts: 0,
      });
      await redis.rpush(laravel.keys.ready('default'), payload);
      laravelIds.push(id);
    }
    for (const id of laravelIds) await removeOf(laravel)('default', id, trash);
    report('Laravel', await trashBytes(connection, layoutTrashKeys(laravelPrefix, trash.dashboardPrefix), laravelIds));
  } finally {
    await deleteKeysUnder(redis, root);
    await connection.close();
  }
}

function report(layout: string, bytes: number) {
  console.log(`${layout}: ${count} removed jobs, trash ${(bytes / 1024).toFixed(0)} KiB, ${Math.round(bytes / count)} bytes a job`);
}

void main();
