import type { Metadata } from 'next';
import { DoctorPanel } from '@/components/doctor/doctor-panel';
import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { absentCapability } from '@/lib/server/queue';

export const metadata: Metadata = { title: 'Doctor · QueueLens' };

// Which checks there are depends on the connection the request is for.
export const dynamic = 'force-dynamic';

export default async function DoctorPage() {
  const lacks = await absentCapability('steppedDoctor');
  if (lacks !== null) return <LayoutLacks title="Doctor" sentence={lacks} />;
  return <DoctorPanel />;
}
