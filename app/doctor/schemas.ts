import { z } from 'zod';
import { REPAIR_BATCH_SIZE } from '@/lib/queue/doctor-repairs';

// What the browser sends to the doctor's repair action, a public endpoint: a
// repair is checked field by field, and every repair re-checks its condition
// inside its script, so a forged one changes nothing that is not broken. (The
// check's own state stays on the server: lib/dashboard/doctor-runs.ts.)

const id = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const name = z.string().min(1).max(1000);
const level = z.string().regex(/^-?\d{1,20}$/);

export const repairSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('requeue-orphan'), id }),
  z.object({ kind: z.literal('drop-tombstone'), queue: name, level, entry: z.string().regex(/^\d{1,20}-\d{1,20}$/) }),
  z.object({ kind: z.literal('clear-entry'), id, entry: z.string().min(1).max(100) }),
  z.object({ kind: z.literal('drop-failed'), id }),
  z.object({ kind: z.literal('free-unique'), key: z.string().max(10_000), id: z.string().max(100) }),
  z.object({ kind: z.literal('drop-level'), queue: name, level }),
  z.object({ kind: z.literal('fail-invalid-payload'), id }),
  z.object({ kind: z.literal('raise-seq'), to: id }),
]);

export const repairsSchema = z.object({ repairs: z.array(repairSchema).min(1).max(REPAIR_BATCH_SIZE) });
