import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { keyTableQuery } from '@/lib/queries/key-layout';
import { getQueryClient } from '@/lib/queries/query-client';
import { readKeyTablePage } from '@/lib/server/key-layout';
import { prefetchLiveQuery } from '@/lib/server/live';
import type { PageSearchParams } from '@/lib/routes';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { KeysView } from './keys-view';

// Read from Redis on every request; a cached page would show stale types and sizes.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Keys · QueueLens' };

export default async function LayoutPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.keys);
  if (elsewhere !== null) return elsewhere;
  const lacks = await absentCapability('keyTable');
  if (lacks !== null) return <LayoutLacks title="Keys" sentence={lacks} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, keyTableQuery(), readKeyTablePage);
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={address} />
      <KeysView />
    </HydrationBoundary>
  );
}
