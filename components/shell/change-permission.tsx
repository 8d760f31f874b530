'use client';

import { createContext, useContext, type ReactNode } from 'react';

/**
 * Whether whoever looks at the page may change the queues it shows, decided
 * on the server for the session and the connection. Pages leave out the
 * controls that would only be refused; the actions check again regardless.
 */
export type ChangePermission = { allowed: true } | { allowed: false; reason: string };

const ChangePermissionContext = createContext<ChangePermission>({ allowed: false, reason: 'Sign in as an operator to change queues.' });

export function ChangePermissionProvider({ permission, children }: { permission: ChangePermission; children: ReactNode }) {
  return <ChangePermissionContext.Provider value={permission}>{children}</ChangePermissionContext.Provider>;
}

export function useChangePermission(): ChangePermission {
  return useContext(ChangePermissionContext);
}

/**
 * Controls that change queues, for a session that may use them; for one that
 * may not, a line saying why they are not on the page. Without children,
 * only that line: for pages that leave their controls out themselves.
 */
export function ChangeControls({ children }: { children?: ReactNode }) {
  const permission = useChangePermission();
  if (permission.allowed) return children;
  return (
    <p
      role="note"
      className="rounded-md border border-zinc-200 bg-zinc-100 px-4 py-2 text-sm text-zinc-700 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-300"
    >
      {permission.reason} The actions that change queues are left out of this page.
    </p>
  );
}
