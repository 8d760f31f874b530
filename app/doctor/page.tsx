import type { Metadata } from 'next';
import { DoctorPanel } from '@/components/doctor/doctor-panel';

export const metadata: Metadata = { title: 'Doctor · QueueLens' };

export default function DoctorPage() {
  return <DoctorPanel />;
}
