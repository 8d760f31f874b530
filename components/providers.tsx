'use client';

import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ToastProvider } from '@/components/ui/toaster';
import { getQueryClient } from '@/lib/queries/query-client';
import { setTabConnection } from '@/lib/queries/tab-connection';

/** What every page runs inside: the session's query cache, the toasts, and the connection this tab was rendered for. */
export function Providers({ connection, children }: { connection: string | undefined; children: ReactNode }) {
  // Set while rendering, before any child's query or action can run.
  if (typeof window !== 'undefined' && connection !== undefined) setTabConnection(connection);
  const queryClient = getQueryClient();
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider>{children}</ToastProvider>
    </QueryClientProvider>
  );
}
