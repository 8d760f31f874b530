'use server';

import { z } from 'zod';
import { inputQueue, queueAction } from '@/lib/server/action';
import { EDITABLE_PAYLOAD_BYTES } from '@/lib/shapes/failed-jobs';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** A push as the Push a job form sends it: what `queuelens push` takes. */
const push = z.object({
  queue: z.string().min(1).max(1000),
  name: z.string().min(1).max(1000),
  payload: z.string().min(2).max(EDITABLE_PAYLOAD_BYTES),
  delaySeconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400),
  // Decimal text: a PHP priority is any 64-bit integer, which a JS number cannot carry exactly.
  priority: z.string().regex(/^-?\d{1,19}$/, 'a whole number'),
  maxAttempts: z.number().int().min(1).max(1000),
  uniqueKey: z.string().max(1000),
});

/**
 * Pushes a job exactly as `queuelens push` does (the payload stored byte for
 * byte, refused unless it is a JSON object or array). With a unique key a
 * live job holds, nothing is written and that job's id comes back.
 */
export const pushJob = queueAction(
  'runner',
  push,
  async ({ queue, name, payload, delaySeconds, priority, maxAttempts, uniqueKey }, runner) => ({
    id: await runner.pushEncoded(queue, name, payload, { delaySeconds, priority, maxAttempts, uniqueKey }),
  }),
  {
    action: 'push a job',
    target: ({ queue, name }) => `${name} on ${queue}`,
    outcome: ({ id }) => `job ${id}`,
  },
  // A queue new to the overview is not among the kept rows: every queue is read then, to find its place.
  inputQueue,
);
