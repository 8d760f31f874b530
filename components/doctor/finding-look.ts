import type { Severity } from '@/lib/shapes/doctor-kinds';

/** A severity badge's colours, light and dark. */
export const SEVERITY_LOOK: Record<Severity, string> = {
  critical: 'bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100',
  warning: 'bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100',
  info: 'bg-zinc-100 text-zinc-700 dark:bg-zinc-800 dark:text-zinc-200',
};
