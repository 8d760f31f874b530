import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { SiteHeader, type HeaderSession } from '@/components/shell/site-header';
import { authenticate } from '@/lib/server/access';
import { chooseConnection, connections } from '@/lib/server/queue';
import './globals.css';

export const metadata: Metadata = {
  title: 'QueueLens',
  description: 'Inspect and repair Redis job queues.',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

/** Who is signed in and which connection the page is for; null when nobody is signed in. */
async function headerSession(): Promise<HeaderSession | null> {
  const check = await authenticate();
  if (!check.ok) return null;
  const choice = await chooseConnection();
  if (!choice.ok) return null;
  const choices = connections().map(({ name, label, readOnly }) => ({ name, label, readOnly }));
  return { access: check.access, connection: choice.connection.name, choices };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const session = await headerSession();
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        <Providers connection={session?.connection}>
          <SiteHeader session={session} />
          <main className="mx-auto max-w-6xl px-4 py-8 sm:px-6">{children}</main>
        </Providers>
      </body>
    </html>
  );
}
