import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { AuditLogView } from '@/components/audit/audit-log-view';
import { AUDIT_PAGE_SIZE, auditFilterFromParams, auditNewestQuery } from '@/lib/queries/audit';
import { getQueryClient } from '@/lib/queries/query-client';
import { readAudit } from '@/lib/server/audit';
import { prefetchLiveQuery } from '@/lib/server/live';

// Read from Redis on every request; a cached page would hide the latest changes.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Audit log · QueueLens' };

export default async function AuditPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const filter = auditFilterFromParams(singleSearchParams(await searchParams));
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, auditNewestQuery(filter), () => readAudit(filter, { limit: AUDIT_PAGE_SIZE }));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <AuditLogView filter={filter} />
    </HydrationBoundary>
  );
}
