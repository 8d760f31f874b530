import type { Metadata } from 'next';
import { DoctorPanel } from '@/components/doctor/doctor-panel';
import { LayoutLacks } from '@/components/layouts/layout-lacks';
import type { PageSearchParams } from '@/lib/routes';
import { absentCapability, readLayout } from '@/lib/server/queue';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';

export const metadata: Metadata = { title: 'Doctor · QueueLens' };

// Which checks there are depends on the connection the request is for.
export const dynamic = 'force-dynamic';

/** What the layout-neutral check covers, in the words of the connection's layout. */
async function describeCheck(): Promise<string> {
  const layout = await readLayout(async ({ description }) => description);
  const covers = layout.ok ? layout.data : 'the connection’s queues';
  return `Checks ${covers} for what its driver should never leave behind: jobs no index holds, ids in two places or whose job is gone, keys of the wrong type and the rest of the layout’s own checks. It reads in small bounded steps, so it is safe beside live workers (where the driver changes a job in several commands, a suspect is read again a few seconds later, so a step may take that long); each repair is the layout’s own script, which checks again before it changes anything.`;
}

export default async function DoctorPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.doctor);
  if (elsewhere !== null) return elsewhere;
  const lacks = await absentCapability('doctor');
  if (lacks !== null) return <LayoutLacks title="Doctor" sentence={lacks} />;
  return (
    <>
      <ConnectionNamedInAddress address={address} />
      <DoctorPanel description={await describeCheck()} />
    </>
  );
}
