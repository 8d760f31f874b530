import { dehydrate, HydrationBoundary } from '@tanstack/react-query';
import type { Metadata } from 'next';
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
  const { name, cursor } = params.data;
  const queryClient = getQueryClient();
  await prefetchLiveQuery(queryClient, keyContentsQuery(name, cursor), () => readKeyContentsPage(name, cursor));
  return (
    <HydrationBoundary state={dehydrate(queryClient)}>
      <KeyContentsView name={name} cursor={cursor} />
    </HydrationBoundary>
  );
}
