import type { ReactNode } from 'react';
import type { JobLocation } from '@/lib/shapes/job-location';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import { describeLocation, type LocationKind } from './describe-location';

const TONE: Record<LocationKind, string> = {
  ready: 'border-emerald-300 bg-emerald-50 text-emerald-950 dark:border-emerald-800 dark:bg-emerald-950/50 dark:text-emerald-50',
  reserved: 'border-blue-300 bg-blue-50 text-blue-950 dark:border-blue-800 dark:bg-blue-950/50 dark:text-blue-50',
  delayed: 'border-zinc-300 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
  parked: 'border-zinc-300 bg-white text-zinc-900 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100',
  due: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-50',
  overdue: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-50',
  stray: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-50',
  failed: 'border-red-300 bg-red-50 text-red-950 dark:border-red-800 dark:bg-red-950/50 dark:text-red-50',
};

/** The glossary's word for each place a job can be; a stray job is the doctor's to explain. */
const TERM: Record<LocationKind, { id: string; word: string } | null> = {
  ready: { id: 'level', word: 'level' },
  reserved: { id: 'claim', word: 'claim' },
  delayed: { id: 'delayed', word: 'delayed' },
  parked: { id: 'parked', word: 'parked' },
  due: { id: 'due', word: 'due' },
  overdue: { id: 'overdue', word: 'overdue' },
  stray: null,
  failed: { id: 'failed', word: 'failed' },
};

/** Where the job is now, in plain words, and what follows from it; `children` (its errors' first lines) below. */
export function JobLocationNote({ location, now, children }: { location: JobLocation; now: number; children?: ReactNode }) {
  const { kind, headline, detail } = describeLocation(location, now);
  return (
    <div className={`rounded-md border px-4 py-3 ${TONE[kind]}`}>
      <p className="font-medium [overflow-wrap:anywhere]">{headline}</p>
      <p className="mt-1 text-sm opacity-90">
        {detail}
        {TERM[kind] !== null && (
          <>
            {' '}
            <GlossaryLink term={TERM[kind].id}>What “{TERM[kind].word}” means</GlossaryLink>
          </>
        )}
      </p>
      {children}
    </div>
  );
}
