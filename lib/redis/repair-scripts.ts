import type { ChainableCommander } from 'ioredis';
import type { RedisConnection } from './connection';
import { execPipeline } from './pipeline';
import { assertScriptSucceeded, changedFlag } from './lua-script';

/** Repairs per pipelined round trip: each is its own short script. */
const REPAIR_BATCH_SIZE = 200;

/**
 * A refusal worth waiting out: scripts answering `code` are sent again until
 * `forMs` has passed (yii2's moving_lock, held a second). A refusal that
 * says when it ends, as `{code, key, ms left}`, is tried again then, ahead
 * of whoever would take it next (a stock worker at its next reserve), and
 * not at all when that is past `forMs`; one that does not (no expiry) every
 * `everyMs`.
 */
export interface RefusalToWaitOut {
  code: number;
  forMs: number;
  everyMs: number;
}

/**
 * Runs one repair script per repair, REPAIR_BATCH_SIZE to a pipelined round
 * trip, `queueCall` adding each to the pipeline: `true` when the script
 * changed something (answered `{1}`). Shared by every layout's repairs.
 * Repairs refused with `waitOut`'s code are sent again, alone, while it
 * allows; any refusal left then throws.
 */
export async function runRepairScripts<Repair>(
  queue: RedisConnection,
  repairs: readonly Repair[],
  queueCall: (pipeline: ChainableCommander, repair: Repair) => void,
  waitOut?: RefusalToWaitOut,
): Promise<boolean[]> {
  return queue.attempt(async () => {
    const outcomes: boolean[] = [];
    for (let start = 0; start < repairs.length; start += REPAIR_BATCH_SIZE) {
      const replies = await repliesWaitingOut(queue, repairs.slice(start, start + REPAIR_BATCH_SIZE), queueCall, waitOut);
      for (const reply of replies) outcomes.push(changedFlag(assertScriptSucceeded(reply)));
    }
    return outcomes;
  });
}

/** What runWaitingOut needs of a script (a LuaScript of ./lua-script.ts): to queue one call and to read its reply. */
export interface PipelinedScript<Call, Reply> {
  queue(pipeline: ChainableCommander, call: Call): void;
  reply(raw: unknown): Reply;
}

/** Runs one script as runRepairScripts runs each, waiting out `waitOut`'s refusal; its reply as the script types it (a refusal left is thrown). */
export async function runWaitingOut<Call, Reply>(
  queue: RedisConnection,
  script: PipelinedScript<Call, Reply>,
  call: Call,
  waitOut: RefusalToWaitOut,
): Promise<Reply> {
  const [reply] = await repliesWaitingOut(queue, [call], (pipeline, one) => script.queue(pipeline, one), waitOut);
  return script.reply(reply);
}

async function repliesWaitingOut<Repair>(
  queue: RedisConnection,
  batch: readonly Repair[],
  queueCall: (pipeline: ChainableCommander, repair: Repair) => void,
  waitOut: RefusalToWaitOut | undefined,
): Promise<unknown[]> {
  const replies: unknown[] = [];
  const deadline = Date.now() + (waitOut?.forMs ?? 0);
  let pending = batch.map((_, index) => index);
  for (;;) {
    const pipeline = queue.redis.pipeline();
    for (const index of pending) queueCall(pipeline, batch[index]!);
    const answered = await execPipeline(pipeline);
    pending.forEach((index, n) => (replies[index] = answered[n]));
    pending = pending.filter((index) => waitOut !== undefined && isRefusal(replies[index], waitOut.code));
    if (pending.length === 0) return replies;
    const wait = nextTryIn(
      pending.map((index) => replies[index]),
      waitOut!,
    );
    if (Date.now() + wait > deadline) return replies;
    await new Promise((resolve) => setTimeout(resolve, wait));
  }
}

/** Milliseconds until the first of these refusals may have ended: the soonest end any of them gives (and a millisecond), else everyMs. */
function nextTryIn(refusals: readonly unknown[], waitOut: RefusalToWaitOut): number {
  const ends = refusals.map((reply) => (reply as unknown[])[2]).filter((left): left is number => typeof left === 'number' && left >= 0);
  return ends.length === 0 ? waitOut.everyMs : Math.min(...ends) + 1;
}

/** A script's `{code, key}` refusal with this code. */
export function isRefusal(reply: unknown, code: number): boolean {
  return Array.isArray(reply) && reply[0] === code;
}
