'use client';

import { usePathname } from 'next/navigation';
import { useId, useState, type ReactNode } from 'react';

/**
 * The header's frame. From the `md` breakpoint up every part is shown; below
 * it (a phone) one line is: a Menu button, the name, which Redis the page
 * shows (`connection`) and whether the data is live (`status`), so the page
 * starts right under it and what is wrong is above the fold. The Menu button
 * opens the rest (`tools`: navigation, "Go to job", refresh; `bar`: the
 * connection switcher and who is signed in); it closes again on the next
 * page, since a tap on a link there is the usual way out of it.
 */
export function CollapsingHeader({
  brand,
  connection,
  status,
  tools,
  bar,
}: {
  brand: ReactNode;
  connection: ReactNode;
  status: ReactNode;
  tools: ReactNode;
  bar: ReactNode;
}) {
  const panelId = useId();
  const pathname = usePathname();
  const [open, setOpen] = useState(false);
  const [openedOn, setOpenedOn] = useState(pathname);
  // Closed by the page change itself as it renders (React's "adjusting state on a prop change"), so the next page never shows the menu open.
  if (openedOn !== pathname) {
    setOpenedOn(pathname);
    setOpen(false);
  }
  const shownOnPhone = open ? '' : 'max-md:hidden';
  return (
    <header className="border-b border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-3 gap-y-3 px-4 py-1.5 sm:px-6 md:gap-x-6 md:py-3">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen(!open)}
          className="-ml-2 inline-flex size-11 shrink-0 items-center justify-center rounded-md text-zinc-700 hover:bg-zinc-100 md:hidden dark:text-zinc-200 dark:hover:bg-zinc-800"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="size-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            {open ? <path d="M5 5l10 10M15 5L5 15" /> : <path d="M3 5h14M3 10h14M3 15h14" />}
          </svg>
          <span className="sr-only">Menu</span>
        </button>
        {brand}
        <div className="min-w-0 flex-1 truncate text-sm md:hidden">{connection}</div>
        <div className="ml-auto lg:order-last lg:ml-0">{status}</div>
        <div id={panelId} className={`flex w-full flex-wrap items-center gap-x-6 gap-y-3 pb-2 md:contents ${shownOnPhone}`}>
          {tools}
        </div>
      </div>
      <div className={`border-t border-zinc-100 dark:border-zinc-800 ${shownOnPhone}`}>{bar}</div>
    </header>
  );
}
