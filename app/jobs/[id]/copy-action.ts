'use server';

import { z } from 'zod';
import { QueueError } from '@/lib/redis/errors';
import { inputQueue, queueAction } from '@/lib/server/action';
import { seenPlaceInput } from '@/lib/server/layout-pages';
import { EDITABLE_PAYLOAD_BYTES } from '@/lib/shapes/failed-jobs';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const copy = z.object({
  queue: z.string().min(1).max(1000),
  id: z.string().regex(/^[\w-]{1,100}$/, 'a job id: digits, letters, - and _'),
  delaySeconds: z
    .number()
    .int()
    .min(0)
    .max(10 * 365 * 86_400),
  // Only where the job's snapshot offered its payload to edit (JobMessage.editable); the layout's script checks it again.
  edited: z.string().min(2).max(EDITABLE_PAYLOAD_BYTES).optional(),
  near: seenPlaceInput.optional(),
});

/**
 * Runs a copy of a job on a layout whose jobs QueueLens does not push itself
 * (its `jobCopies`): a new job with a new id from the job's own bytes, placed
 * as the driver's push places one, optionally delayed and edited where the
 * layout allows. A copy the layout refuses says why.
 */
export const copyJob = queueAction(
  'jobCopies',
  copy,
  async ({ queue, id, delaySeconds, edited, near }, copies) => {
    const made = await copies.copy(queue, id, { delaySeconds, edited, near });
    if (!made.copied) throw new QueueError(made.refused);
    return { id: made.id };
  },
  {
    action: 'run a copy of a job',
    target: ({ queue, id, edited }) => `job ${id} on ${queue}${edited === undefined ? '' : ', edited'}`,
    outcome: ({ id }) => `job ${id}`,
  },
  inputQueue,
);
