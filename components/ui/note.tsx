import type { ReactNode } from 'react';
import { Callout } from './banner';

/** An amber note; `alert` for one that must be announced. */
export function Note({ title, children, role = 'note' }: { title: string; children: ReactNode; role?: 'note' | 'alert' }) {
  return (
    <Callout title={title} tone="warning" role={role}>
      {children}
    </Callout>
  );
}
