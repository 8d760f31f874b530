'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import { useEffect, type ReactNode } from 'react';
import { ChangePermissionProvider, type ChangePermission } from '@/components/shell/change-permission';
import { HYDRATED_ATTRIBUTE } from '@/components/shell/hydration';
import { ToastProvider } from '@/components/ui/toaster';
import { getQueryClient } from '@/lib/queries/query-client';
import { setTabConnection } from '@/lib/queries/tab-connection';

interface ProvidersProps {
  connection: string | undefined;
  /** undefined when nobody is signed in: then nothing may be changed */
  permission: ChangePermission | undefined;
  children: ReactNode;
}

/** What every page runs inside: the session's query cache, the toasts, the connection this tab was rendered for and whether it may change it. */
export function Providers({ connection, permission, children }: ProvidersProps) {
  // Set while rendering, before any child's query or action can run.
  if (typeof window !== 'undefined' && connection !== undefined) setTabConnection(connection);
  const queryClient = getQueryClient();
  useEffect(markHydrated, []);
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{permission ? <ChangePermissionProvider permission={permission}>{children}</ChangePermissionProvider> : children}</ToastProvider>
    </QueryClientProvider>
  );
}

/**
 * Marks the page hydrated (HYDRATED_ATTRIBUTE): until then a link's click is
 * left to the browser (components/shell/hydration.ts), and e2e/test.ts waits
 * for it. Set a task after this commit's effects, so the router's own, which
 * run after its children's, have run too.
 */
function markHydrated() {
  const timer = setTimeout(() => document.documentElement.setAttribute(HYDRATED_ATTRIBUTE, ''));
  return () => clearTimeout(timer);
}
