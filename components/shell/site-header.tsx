import Link from 'next/link';
import { ConnectionStatus } from '@/components/live/connection-status';
import { PollIntervalSelect } from '@/components/live/poll-interval-select';
import { overviewHref } from '@/lib/routes';
import { GoToJob } from './go-to-job';
import { NavLinks } from './nav-links';

/** The bar on every page: name, navigation, "Go to job", how often data refreshes and whether it does. */
export function SiteHeader() {
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      {/* A phone gets name, navigation and status on the first line and the tools below; wider screens one line. */}
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-3 px-4 py-3 sm:px-6">
        <Link href={overviewHref} className="rounded-md text-lg font-semibold tracking-tight">
          QueueLens
        </Link>
        <NavLinks />
        <div className="ml-auto lg:order-last lg:ml-0">
          <ConnectionStatus />
        </div>
        <div className="flex w-full flex-wrap items-center gap-x-5 gap-y-3 lg:ml-auto lg:w-auto">
          <GoToJob />
          <PollIntervalSelect />
        </div>
      </div>
    </header>
  );
}
