'use server';

import { z } from 'zod';
import { trashSettingsFromEnv } from '@/lib/dashboard/trash-settings';
import { BATCH_SIZE } from '@/lib/shapes/failed-jobs';
import { describeRestoreRefusal } from '@/lib/shapes/trash';
import { describeJobs, queueAction } from '@/lib/server/action';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

// A listed id: a job id, or (yii2 with several channels) `<channel>:<id>`, a channel name being at most 1,000 characters.
const jobIds = z.array(z.string().min(1).max(1200)).min(1).max(BATCH_SIZE);

/** Puts these jobs back from the trash where their driver keeps them; each refusal says why, and leaves that job in the trash. */
export const restoreJobs = queueAction(
  'trash',
  z.object({ ids: jobIds }),
  async ({ ids }, trash) => {
    const outcomes = await trash.restore(trashSettingsFromEnv(), ids);
    const restored = outcomes.filter(({ outcome }) => outcome === 'restored');
    return {
      restored: restored.map(({ id }) => id),
      refusals: outcomes.flatMap(({ id, outcome }) => (outcome === 'restored' ? [] : [describeRestoreRefusal(id, outcome)])),
      // Each restored job's queue (its trash entry's): the figures a page loaded next must show again; one entry naming none reads every queue.
      queues: restored.some(({ queue }) => queue === '') ? null : [...new Set(restored.map(({ queue }) => queue))],
    };
  },
  {
    action: 'restore jobs from the trash',
    target: ({ ids }) => describeJobs(ids),
    outcome: ({ restored, refusals }) => `restored ${restored.length}${refusals.length > 0 ? `; refused: ${refusals.join('; ')}` : ''}`,
  },
  // A restore that failed part way may have put some back: every queue is read then.
  (_input, done) => done?.queues ?? null,
);
