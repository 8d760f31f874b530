'use client';

import Link from 'next/link';
import type { Route } from 'next';
import { useEffect } from 'react';
import { useConnectionSwitch } from '@/components/shell/connection-switcher';
import { Note } from '@/components/ui/note';
import { CONNECTION_PARAM } from '@/lib/routes';

interface AddressedElsewhereProps {
  /** what the address shows, as a sentence starts: "This search", "This job" */
  what: string;
  /** the connection it names: its label null when QueueLens has none of that name */
  elsewhere: { name: string; label: string | null };
  /** the label of the connection this browser shows */
  here: string;
  /** why nothing is shown here, after "This browser shows <here>" */
  because: string;
  /** what Switch does once switched: "search", "open it" */
  then: string;
  /** the same page on this browser's connection */
  hereLink: { href: Route; text: string };
}

/**
 * Said instead of the page when its address names another connection than
 * the one this browser shows: a link passed on by a colleague would
 * otherwise show another Redis's job of the same id, or no match. Offers to
 * switch to the connection named, or the same page here.
 */
export function AddressedElsewhere({ what, elsewhere, here, because, then, hereLink }: AddressedElsewhereProps) {
  const { switching, switchTo } = useConnectionSwitch();
  const instead = (
    <Link href={hereLink.href} className="underline">
      {hereLink.text}
    </Link>
  );
  if (elsewhere.label === null) {
    return (
      <Note title={`${what}’s address names a connection QueueLens does not have`}>
        <p>
          It names “{elsewhere.name}”; this browser shows {here}. {instead}
        </p>
      </Note>
    );
  }
  return (
    <Note title={`${what} is on ${elsewhere.label}`}>
      <p>
        This browser shows {here}, {because}.
      </p>
      <p className="flex flex-wrap items-center gap-3 pt-1">
        <button type="button" className="button-primary" disabled={switching} onClick={() => void switchTo(elsewhere.name)}>
          Switch to {elsewhere.label} and {then}
        </button>
        {instead}
      </p>
    </Note>
  );
}

/**
 * Adds the connection shown to an address that names none (a link made in
 * this tab, or an older one), in place and without a request, so that the
 * address bar can be passed to a colleague.
 */
export function NameConnectionInAddress({ connection }: { connection: string }) {
  // After every render, not once: the page's next address (another job's) renders this same element again.
  useEffect(() => {
    const address = new URL(window.location.href);
    if (address.searchParams.has(CONNECTION_PARAM)) return;
    address.searchParams.set(CONNECTION_PARAM, connection);
    // A turn later: on a page's first load this runs before the router's own effect has wrapped replaceState to keep
    // its state in the entry, and an entry without it is one Back comes to and does not show (the address changes, the page stays).
    const naming = setTimeout(() => window.history.replaceState(null, '', address));
    return () => clearTimeout(naming);
  });
  return null;
}
