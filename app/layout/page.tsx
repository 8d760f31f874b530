import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { keyLayoutQuery } from '@/lib/queries/key-layout';
import { getQueryClient } from '@/lib/queries/query-client';
import { readLayoutPage } from '@/lib/server/key-layout';
import { prefetchLiveQuery } from '@/lib/server/live';
import { KeyLayoutView } from './key-layout-view';

// Read from Redis on every request; a cached page would show stale types and sizes.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Keys · QueueLens' };

export default async function LayoutPage() {
  const lacks = await absentCapability('keyLayout');
  if (lacks !== null) return <LayoutLacks title={'Key layout'} sentence={lacks} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, keyLayoutQuery(), readLayoutPage);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <KeyLayoutView />
    </HydrationBoundary>
  );
}
