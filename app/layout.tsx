import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import type { ReactNode } from 'react';
import { Providers } from '@/components/providers';
import { SiteHeader, type HeaderSession } from '@/components/shell/site-header';
import type { ChangePermission } from '@/components/shell/change-permission';
import { EARLY_LINK_CLICKS_SCRIPT } from '@/components/shell/hydration';
import { MAIN_CONTENT_ID, SkipLink } from '@/components/ui/skip-link';
import { nonceOf } from '@/lib/auth/security-headers';
import { LAYOUT_TITLES } from '@/lib/layouts/adapter';
import { authenticate, changeRefusal } from '@/lib/server/access';
import { absentCapability, chooseConnection, connections } from '@/lib/server/queue';
import './globals.css';

export const metadata: Metadata = {
  title: 'QueueLens',
  description: 'Inspect and repair Redis job queues.',
};

export const viewport: Viewport = {
  colorScheme: 'light dark',
};

interface PageSession extends HeaderSession {
  permission: ChangePermission;
}

/** Who is signed in, which connection the page is for, and whether they may change it; null when nobody is signed in. */
async function pageSession(): Promise<PageSession | null> {
  const check = await authenticate();
  if (!check.ok) return null;
  const choice = await chooseConnection();
  if (!choice.ok) return null;
  const choices = connections().map(({ name, label, readOnly, layout }) => ({ name, label, readOnly, layout: LAYOUT_TITLES[layout.layout] }));
  const refusal = changeRefusal(check.access, choice.connection);
  const permission: ChangePermission = refusal === null ? { allowed: true } : { allowed: false, reason: refusal };
  // Known without Redis: a layout whose jobs are hashes numbered by one counter takes whole numbers only, and needs no queue to find one.
  const jobIds = (await absentCapability('jobHashFields')) === null ? 'numbered' : 'text';
  return { access: check.access, connection: choice.connection.name, choices, permission, jobIds };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const [session, requestHeaders] = await Promise.all([pageSession(), headers()]);
  return (
    <html lang="en">
      <body className="min-h-screen bg-zinc-50 text-zinc-900 antialiased dark:bg-zinc-950 dark:text-zinc-100">
        {/* The browser hides a script's nonce from the DOM, so hydration would see it differ. */}
        <script
          nonce={nonceOf(requestHeaders.get('content-security-policy'))}
          suppressHydrationWarning
          dangerouslySetInnerHTML={{ __html: EARLY_LINK_CLICKS_SCRIPT }}
        />
        <SkipLink />
        <Providers connection={session?.connection} permission={session?.permission}>
          <SiteHeader session={session} />
          {/* tabIndex -1: the skip link moves focus here, so the next Tab goes on from the page's start. */}
          <main id={MAIN_CONTENT_ID} tabIndex={-1} className="mx-auto max-w-6xl px-4 py-8 focus:outline-none sm:px-6">
            {children}
          </main>
        </Providers>
      </body>
    </html>
  );
}
