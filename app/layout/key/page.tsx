import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { keyAddressOf } from '@/lib/layouts/key-layout';
import { keyContentsQuery } from '@/lib/queries/key-layout';
import { getQueryClient } from '@/lib/queries/query-client';
import { keyContentsParams, readKeyContentsPage } from '@/lib/server/key-layout';
import { layoutKeyPath, type PageSearchParams } from '@/lib/routes';
import { addressedPage, ConnectionNamedInAddress } from '@/app/connection-in-address';
import { prefetchLiveQuery } from '@/lib/server/live';
import { KeyContentsView, NotAKeyAddress } from './key-contents-view';

// Read from Redis on every request; a cached page would show stale contents.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Key contents · QueueLens' };

interface Props {
  searchParams: Promise<PageSearchParams>;
}

export default async function KeyContentsPage({ searchParams }: Props) {
  const search = await searchParams;
  const params = keyContentsParams.safeParse(search);
  if (!params.success) return <NotAKeyAddress />;
  const { name, raw, cursor } = params.data;
  const address = raw === undefined ? { key: name!, raw: null } : keyAddressOf(Buffer.from(raw, 'base64url'));
  const { address: connection, elsewhere } = await addressedPage(search, {
    title: (
      <>
        Key <span className="font-mono">{address.key}</span>
      </>
    ),
    what: 'This key',
    because: 'whose key of that name holds something else, if anything, so it is not shown',
    path: layoutKeyPath,
    instead: (here) => `Show the key on ${here} instead`,
  });
  if (elsewhere !== null) return elsewhere;
  const lacks = await absentCapability('keyTable');
  if (lacks !== null) return <LayoutLacks title={'Key contents'} sentence={lacks} />;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, keyContentsQuery(address, cursor), () => readKeyContentsPage(params.data));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <ConnectionNamedInAddress address={connection} />
      <KeyContentsView address={address} cursor={cursor} />
    </HydrationBoundary>
  );
}
