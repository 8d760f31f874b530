/**
 * bull-board over the benchmark's BullMQ queues, as its README mounts it:
 * `createBullBoard` with a BullMQAdapter per queue and the ExpressAdapter on
 * an Express app. Started by bench/served-app.ts' startBullBoard as a process
 * of its own, so that its CPU and memory are measured apart from the
 * benchmark's, as the Next server's are. Reads BULL_BOARD_PORT,
 * BULL_BOARD_BASE_PATH (where the board is mounted), BULL_REDIS_URL,
 * BULL_PREFIX and BULL_QUEUES_FILE (the queue names, one a line).
 */
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { ExpressAdapter } from '@bull-board/express';
import { Queue } from 'bullmq';
import { readFileSync } from 'node:fs';
import express from 'express';
import { Redis } from 'ioredis';

function requiredEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`bull-board-server needs ${name}`);
  return value;
}

// One connection for every queue, as QueueLens' dashboard has one: the
// comparison is of the reads, not of how many sockets carry them. Named, so
// that SLOWLOG entries say whose they are.
const connection = new Redis(requiredEnv('BULL_REDIS_URL'), { maxRetriesPerRequest: null, connectionName: 'bull-board' });
const prefix = requiredEnv('BULL_PREFIX');
const basePath = requiredEnv('BULL_BOARD_BASE_PATH');
const queues = readFileSync(requiredEnv('BULL_QUEUES_FILE'), 'utf8')
  .split('\n')
  .map((name) => new BullMQAdapter(new Queue(name, { connection, prefix })));
const serverAdapter = new ExpressAdapter().setBasePath(basePath);
createBullBoard({ queues, serverAdapter });
const app = express();
app.use(basePath, serverAdapter.getRouter());
app.listen(Number(requiredEnv('BULL_BOARD_PORT')), '127.0.0.1');
