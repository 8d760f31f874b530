import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';
import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
import { keyAddressOf } from '@/lib/layouts/key-layout';
import { keyContentsQuery } from '@/lib/queries/key-layout';
import { getQueryClient } from '@/lib/queries/query-client';
import { keyContentsParams, readKeyContentsPage } from '@/lib/server/key-layout';
import { prefetchLiveQuery } from '@/lib/server/live';
import { KeyContentsView, NotAKeyAddress } from './key-contents-view';

// Read from Redis on every request; a cached page would show stale contents.
export const dynamic = 'force-dynamic';

export const metadata: Metadata = { title: 'Key contents · QueueLens' };

interface Props {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}

export default async function KeyContentsPage({ searchParams }: Props) {
  const params = keyContentsParams.safeParse(await searchParams);
  if (!params.success) return <NotAKeyAddress />;
  const lacks = await absentCapability('keyTable');
  if (lacks !== null) return <LayoutLacks title={'Key contents'} sentence={lacks} />;
  const { name, raw, cursor } = params.data;
  const address = raw === undefined ? { key: name!, raw: null } : keyAddressOf(Buffer.from(raw, 'base64url'));
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, keyContentsQuery(address, cursor), () => readKeyContentsPage(params.data));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <KeyContentsView address={address} cursor={cursor} />
    </HydrationBoundary>
  );
}
