'use server';

import { z } from 'zod';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { detectStep } from '@/lib/layouts/detect';
import { redisLocationOf } from '@/lib/shapes/detect-entry';
import { isScanCursor } from '@/lib/shapes/stream-ids';
import { operatorReadAction } from '@/lib/server/action';

// Every export of a 'use server' file is a public endpoint: only the Connect page's step.

const detectStepInput = z
  .object({
    cursor: z
      .string()
      .regex(/^\d{1,20}$/, 'a SCAN cursor is a decimal number')
      .refine(isScanCursor, 'a SCAN cursor is at most 2^64 - 1'),
    match: z.string().min(1, 'a SCAN MATCH pattern, such as myapp:*').max(200, 'at most 200 characters'),
  })
  .strict();

/**
 * One step of the detection walk on the tab's connection's Redis (never one
 * the browser names: that would let a page reach any server the dashboard
 * can). The tally goes back to the page, which merges the steps.
 */
export const runDetectStep = operatorReadAction(detectStepInput, async ({ cursor, match }, redis) => {
  const step = await detectStep(redis.redis, cursor, { match, ownPrefix: dashboardPrefixFromEnv() });
  return { ...step, location: redisLocationOf(redis.settings) };
});
