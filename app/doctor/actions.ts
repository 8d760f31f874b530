'use server';

import { z } from 'zod';
import { doctorStep } from '@/lib/inspect/doctor';
import { applyRepairs } from '@/lib/queue/doctor-repairs';
import { queueAction } from '@/lib/server/action';
import { repairsSchema, stateSchema } from './schemas';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

/** One bounded step of the check; the browser repeats it with the returned state until `done`. */
export const runDoctorStep = queueAction(z.object({ state: stateSchema }), ({ state }, queue) => doctorStep(queue, state));

/** Applies repairs, each one script that re-checks its condition: `outcomes[i]` false means it was no longer broken. */
export const repairFindings = queueAction(repairsSchema, async ({ repairs }, queue) => ({ outcomes: await applyRepairs(queue, repairs) }));
