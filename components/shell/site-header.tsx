import Link from 'next/link';
import { signOut } from '@/app/login/actions';
import { ConnectionStatus } from '@/components/live/connection-status';
import { PollIntervalSelect } from '@/components/live/poll-interval-select';
import type { Access } from '@/lib/auth/credentials';
import { overviewHref, sessionsHref } from '@/lib/routes';
import { CollapsingHeader } from './collapsing-header';
import { ConnectionSwitcher, type ConnectionChoice } from './connection-switcher';
import { GoToJob, type JobIds } from './go-to-job';
import { NavLinks } from './nav-links';

export interface HeaderSession {
  access: Access;
  connection: string;
  choices: readonly ConnectionChoice[];
  /** how the connection's layout numbers its jobs, for "Go to job" */
  jobIds: JobIds;
}

/**
 * The bar on every page: name, navigation, "Go to job", how often data
 * refreshes and whether it does, which Redis the page shows, who is
 * signed in, and the sessions page; on a phone one line that opens to the
 * rest (CollapsingHeader). Signed out, only the name.
 */
export function SiteHeader({ session }: { session: HeaderSession | null }) {
  const brand = (
    <Link prefetch={false} href={overviewHref} className="rounded-md text-lg font-semibold tracking-tight">
      QueueLens
    </Link>
  );
  if (session === null) {
    return (
      <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        <div className="mx-auto flex max-w-6xl items-center px-4 py-3 sm:px-6">{brand}</div>
      </header>
    );
  }
  const shown = session.choices.find((choice) => choice.name === session.connection);
  return (
    <CollapsingHeader
      brand={brand}
      connection={
        <>
          <span className="sr-only">Redis: </span>
          {shown?.label ?? session.connection}
        </>
      }
      status={<ConnectionStatus />}
      tools={
        <>
          <NavLinks />
          <div className="flex w-full flex-wrap items-center gap-x-5 gap-y-3 lg:ml-auto lg:w-auto">
            <GoToJob ids={session.jobIds} />
            <PollIntervalSelect />
          </div>
        </>
      }
      bar={
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-5 gap-y-2 px-4 py-1.5 sm:px-6">
          <ConnectionSwitcher current={session.connection} choices={session.choices} />
          <p className="ml-auto text-sm text-zinc-600 dark:text-zinc-400">
            {/* Signed in without a name, the name is the role: said once. */}
            {session.access.who !== session.access.role && `${session.access.who} · `}
            <span className="font-medium text-zinc-900 dark:text-zinc-100">{session.access.role}</span>
            {session.access.role === 'viewer' && ' (can look, not change)'}
          </p>
          <Link prefetch={false} href={sessionsHref} className="text-sm text-blue-700 underline dark:text-blue-400">
            Sessions
          </Link>
          {session.access.via === 'session' && (
            <form action={signOut}>
              <button type="submit" className="text-sm text-blue-700 underline dark:text-blue-400">
                Sign out
              </button>
            </form>
          )}
        </div>
      }
    />
  );
}
