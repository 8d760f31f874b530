'use server';

import { z } from 'zod';
import { dashboardKeys, dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { CHECK_RUN_ID, LAYOUT_REPAIRS_PER_CALL, SHOWN_FINDING_ID } from '@/lib/shapes/layout-check';
import { repairLayoutFindings, stepLayoutCheck } from '@/lib/dashboard/layout-doctor-runs';
import { queueAction, queueReadAction } from '@/lib/server/action';
import { getRedis } from '@/lib/server/queue';

// Every export of a 'use server' file is a public endpoint: only wrapped actions here.

const LAYOUT_KEYS = () => dashboardKeys(dashboardPrefixFromEnv());

/**
 * One bounded step of the connection's doctor check, its state and findings
 * kept on the server: the browser starts with `run: null` and repeats with
 * the returned id until `done`.
 */
export const runLayoutCheckStep = queueReadAction('doctor', z.object({ run: z.string().regex(CHECK_RUN_ID).nullable() }), async ({ run }, doctor, connection) =>
  stepLayoutCheck(await getRedis(connection), doctor, LAYOUT_KEYS(), connection.name, run),
);

const layoutRepairSchema = z.object({
  run: z.string().regex(CHECK_RUN_ID),
  findings: z.array(z.string().regex(SHOWN_FINDING_ID)).min(1).max(LAYOUT_REPAIRS_PER_CALL),
});

/** Repairs findings of a doctor check, named by id: each repair is the one the server kept from the check, re-checked by its script. */
export const repairLayoutCheckFindings = queueAction(
  'doctor',
  layoutRepairSchema,
  async ({ run, findings }, doctor, connection) => repairLayoutFindings(await getRedis(connection), doctor, LAYOUT_KEYS(), connection.name, run, findings),
  {
    action: 'repair doctor findings',
    target: ({ findings }) => `${findings.length} finding${findings.length === 1 ? '' : 's'} of a check`,
    outcome: ({ outcomes }) => {
      const count = (outcome: string) => outcomes.filter((entry) => entry.outcome === outcome).length;
      return `${count('repaired')} repaired, ${count('gone')} no longer broken, ${count('not-repairable')} not repairable, ${count('unknown')} unknown to the check`;
    },
  },
);
