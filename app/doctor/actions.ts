'use server';

import { z } from 'zod';
import { DOCTOR_RUN_ID, stepDoctorRun } from '@/lib/dashboard/doctor-runs';
import { dashboardKeys, dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { applyRepairs } from '@/lib/queue/doctor-repairs';
import { queueAction, queueReadAction } from '@/lib/server/action';
import { repairsSchema } from './schemas';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** One bounded step of the check; the browser starts with `run: null` and repeats with the returned id until `done`. */
export const runDoctorStep = queueReadAction('steppedDoctor', z.object({ run: z.string().regex(DOCTOR_RUN_ID).nullable() }), ({ run }, queue) =>
  stepDoctorRun(queue, dashboardKeys(dashboardPrefixFromEnv()), run),
);

/** Applies repairs, each one script that re-checks its condition: `outcomes[i]` false means it was no longer broken. */
export const repairFindings = queueAction('steppedDoctor', repairsSchema, async ({ repairs }, queue) => ({ outcomes: await applyRepairs(queue, repairs) }), {
  action: 'repair doctor findings',
  target: ({ repairs }) => `${repairs.length} repair${repairs.length === 1 ? '' : 's'}: ${[...new Set(repairs.map((repair) => repair.kind))].join(', ')}`,
  outcome: ({ outcomes }) => `${outcomes.filter(Boolean).length} repaired, ${outcomes.filter((done) => !done).length} no longer broken`,
});
