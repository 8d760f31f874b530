'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useConnectionSwitch } from '@/components/shell/connection-switcher';
import { Note } from '@/components/ui/note';

export interface SearchedConnection {
  name: string;
  /** null when this QueueLens has no connection of that name */
  label: string | null;
}

/**
 * Said instead of running a search whose address names another connection
 * than the one this browser shows: a link passed on by a colleague would
 * otherwise search the wrong Redis and answer "no job matches". Offers to
 * switch to the connection named, or to search this one.
 */
export function SearchElsewhere({ searched, here, hereHref }: { searched: SearchedConnection; here: string; hereHref: Route }) {
  const { switching, switchTo } = useConnectionSwitch();
  if (searched.label === null) {
    return (
      <Note title="This search names a connection QueueLens does not have">
        <p>
          Its address names “{searched.name}”; this browser shows {here}. <SearchHere here={here} hereHref={hereHref} />
        </p>
      </Note>
    );
  }
  return (
    <Note title={`This search is on ${searched.label}`}>
      <p>This browser shows {here}, so the search has not run.</p>
      <p className="flex flex-wrap items-center gap-3 pt-1">
        <button type="button" className="button-primary" disabled={switching} onClick={() => void switchTo(searched.name)}>
          Switch to {searched.label} and search
        </button>
        <SearchHere here={here} hereHref={hereHref} />
      </p>
    </Note>
  );
}

function SearchHere({ here, hereHref }: { here: string; hereHref: Route }) {
  return (
    <Link href={hereHref} className="underline">
      Search {here} instead
    </Link>
  );
}
