import { useId, type ReactNode } from 'react';

const TONES = {
  error: 'border-red-300 bg-red-50 text-red-900 dark:border-red-900 dark:bg-red-950/60 dark:text-red-100',
  warning: 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-800 dark:bg-amber-950/50 dark:text-amber-100',
} as const;

interface CalloutProps {
  title: string;
  tone: keyof typeof TONES;
  /** `alert` for what must be announced when it appears */
  role: 'alert' | 'note';
  children: ReactNode;
}

/** A boxed message named by its title, so it can be found by its role and name. */
export function Callout({ title, tone, role, children }: CalloutProps) {
  const titleId = useId();
  return (
    <div role={role} aria-labelledby={titleId} className={`rounded-md border px-4 py-3 ${TONES[tone]}`}>
      <p id={titleId} className="font-semibold">
        {title}
      </p>
      <div className="mt-1 space-y-1 text-sm break-words">{children}</div>
    </div>
  );
}

/** An error the page cannot work around: an alert, so it is announced. */
export function Banner({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Callout title={title} tone="error" role="alert">
      {children}
    </Callout>
  );
}
