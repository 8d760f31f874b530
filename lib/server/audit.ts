import 'server-only';
import { z } from 'zod';
import { AUDIT_RESULTS, AUDIT_ROLES } from '@/lib/dashboard/audit-entry';
import { formatAuditLine, readAuditPage, recordAudit, type AuditFilter, type AuditPage, type NewAuditEntry } from '@/lib/dashboard/audit-log';
import { dashboardKeys, dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import type { RedisConnection } from '@/lib/redis/connection';
import { isStreamId } from '@/lib/shapes/stream-ids';
import { readRedis, type ReadResult } from './queue';

/** QueueLens's own keys, under QUEUELENS_PREFIX. */
function auditKeys() {
  return dashboardKeys(dashboardPrefixFromEnv());
}

/**
 * Records one mutation: appends it to the audit log on `redis` and
 * prints it to stdout as one JSON line, `{"type":"audit",…}`. Never throws:
 * when the log cannot be written the line is printed all the same, with
 * `"stored":false` and the reason.
 */
export async function recordMutation(redis: RedisConnection, entry: NewAuditEntry): Promise<void> {
  const line = await recordAudit(redis.redis, auditKeys(), entry);
  try {
    process.stdout.write(formatAuditLine(line));
  } catch (error) {
    // stdout closed (EPIPE): the entry may still be in Redis; the action goes on either way.
    console.error('QueueLens: could not print an audit line', error);
  }
}

export const auditPageParams = z.object({
  // Older than 0-0 there is nothing, and Redis refuses the exclusive range from it.
  before: z
    .string()
    .refine((id) => isStreamId(id) && id !== '0-0')
    .optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  action: z.string().max(200).optional(),
  who: z.string().max(200).optional(),
  role: z.enum(AUDIT_ROLES).optional(),
  result: z.enum(AUDIT_RESULTS).optional(),
  text: z.string().max(1000).optional(),
});

/** A bounded read of the audit log, for GET /api/audit and the page's prefetch. */
export function readAudit(filter: AuditFilter, { before, limit }: { before?: string; limit: number }): Promise<ReadResult<AuditPage>> {
  return readRedis((redis) => redis.attempt(() => readAuditPage(redis.redis, auditKeys(), { before, limit, filter })));
}
