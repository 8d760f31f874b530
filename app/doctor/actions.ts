'use server';

import { z } from 'zod';
import { doctorStep } from '@/lib/inspect/doctor';
import { applyRepairs } from '@/lib/queue/doctor-repairs';
import { queueAction, queueReadAction } from '@/lib/server/action';
import { repairsSchema, stateSchema } from './schemas';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** One bounded step of the check; the browser repeats it with the returned state until `done`. */
export const runDoctorStep = queueReadAction(z.object({ state: stateSchema }), ({ state }, queue) => doctorStep(queue, state));

/** Applies repairs, each one script that re-checks its condition: `outcomes[i]` false means it was no longer broken. */
export const repairFindings = queueAction(repairsSchema, async ({ repairs }, queue) => ({ outcomes: await applyRepairs(queue, repairs) }), {
  action: 'repair doctor findings',
  target: ({ repairs }) => `${repairs.length} repair${repairs.length === 1 ? '' : 's'}: ${[...new Set(repairs.map((repair) => repair.kind))].join(', ')}`,
  outcome: ({ outcomes }) => `${outcomes.filter(Boolean).length} repaired, ${outcomes.filter((done) => !done).length} no longer broken`,
});
