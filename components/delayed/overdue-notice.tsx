import type { ReactNode } from 'react';

/** The frame of what is due and not moved: amber when the queue looks unattended. */
export function AttendanceBox({ unattended, children }: { unattended: boolean; children: ReactNode }) {
  return (
    <div
      className={`space-y-1 rounded-md border px-4 py-3 text-sm ${
        unattended
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-50'
          : 'border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900'
      }`}
    >
      {children}
    </div>
  );
}
