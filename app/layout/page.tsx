import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { keyLayoutQuery, keyTableQuery } from '@/lib/queries/key-layout';
import { getQueryClient } from '@/lib/queries/query-client';
import { readKeyTablePage, readLayoutPage } from '@/lib/server/key-layout';
import { prefetchLiveQuery } from '@/lib/server/live';
import { KeyLayoutView } from './key-layout-view';
import { KeyTableView } from './key-table-view';

// Read from Redis on every request; a cached page would show stale types and sizes.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Keys · QueueLens' };

export default async function LayoutPage() {
  const queryClient = getQueryClient();
  // The driver's own, fuller table where the layout has it (StaticPHP's); else the table any layout fills.
  if ((await absentCapability('keyLayout')) === null) {
    await prefetchLiveQuery(queryClient, keyLayoutQuery(), readLayoutPage);
    return (
      <HydrationBoundary state={dehydrate(queryClient)}>
        <KeyLayoutView />
      </HydrationBoundary>
    );
  }
  const lacks = await absentCapability('keyTable');
  if (lacks !== null) return <LayoutLacks title="Keys" sentence={lacks} />;
  await prefetchLiveQuery(queryClient, keyTableQuery(), readKeyTablePage);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <KeyTableView />
    </HydrationBoundary>
  );
}
