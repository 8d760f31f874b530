'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ChangePermissionProvider, type ChangePermission } from '@/components/shell/change-permission';
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
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{permission ? <ChangePermissionProvider permission={permission}>{children}</ChangePermissionProvider> : children}</ToastProvider>
    </QueryClientProvider>
  );
}
