import type { ReactNode } from 'react';
import { AddressedElsewhere, NameConnectionInAddress } from '@/components/shell/addressed-elsewhere';
import { addressOn, alertsHref, doctorHref, failedHref, layoutHref, overviewHref, reservationsHref, trashHref, type PageSearchParams } from '@/lib/routes';
import { addressedConnection, type AddressedConnection } from '@/lib/server/addressed-connection';

interface ElsewhereWording {
  /** the page's heading, kept above the note (a name in it in the page's own monospace) */
  title: ReactNode;
  /** what the address shows, as a sentence starts: "This job", "This queue" */
  what: string;
  /** why it is not shown, after "This browser shows <here>, " */
  because: string;
  /** the page's path, for the same page on this browser's connection */
  path: string;
  /** that link's words, given this browser's connection's label */
  instead: (here: string) => string;
}

/**
 * What the pages of a whole connection's list or check (whose heading names
 * no job, queue or key) say in their place when their address names
 * another connection.
 */
export const CONNECTION_PAGES = {
  overview: {
    title: 'Queues',
    what: 'This overview',
    because: 'whose queues are others, so they are not shown',
    path: overviewHref,
    instead: (here) => `Show the queues of ${here} instead`,
  },
  failed: {
    title: 'Failed jobs',
    what: 'This list',
    because: 'whose failed jobs are others, so they are not shown',
    path: failedHref,
    instead: (here) => `Show the failed jobs of ${here} instead`,
  },
  reservations: {
    title: 'Reservations',
    what: 'This list',
    because: 'whose reservations are others, so they are not shown',
    path: reservationsHref,
    instead: (here) => `Show the reservations of ${here} instead`,
  },
  doctor: {
    title: 'Doctor',
    what: 'This check',
    because: 'whose keys are others, so it is not run here',
    path: doctorHref,
    instead: (here) => `Check ${here} instead`,
  },
  keys: {
    title: 'Keys',
    what: 'This key table',
    because: 'whose keys are others, so they are not shown',
    path: layoutHref,
    instead: (here) => `Show the keys of ${here} instead`,
  },
  trash: {
    title: 'Trash',
    what: 'This trash',
    because: 'whose forgotten and removed jobs are others, so they are not shown',
    path: trashHref,
    instead: (here) => `Show the trash of ${here} instead`,
  },
  alerts: {
    title: 'Alerts',
    what: 'This alerts page',
    because: 'whose marks and silences are others, so they are not shown',
    path: alertsHref,
    instead: (here) => `Show the alerts of ${here} instead`,
  },
} satisfies Record<string, ElsewhereWording>;

/**
 * The connection a page's address names, and what the page shows in its
 * place when that is another than the one this browser shows (an alert's
 * link, a colleague's address): its heading and a note offering to switch,
 * or to open the same page here. `elsewhere` is null when the page may be
 * shown; the page then renders ConnectionNamedInAddress, which names the
 * connection in an address that named none.
 */
export async function addressedPage(
  params: PageSearchParams,
  wording: ElsewhereWording,
): Promise<{ address: AddressedConnection | null; elsewhere: ReactNode | null }> {
  const address = await addressedConnection(params);
  return { address, elsewhere: shownElsewhere(address, params, wording) };
}

function shownElsewhere(address: AddressedConnection | null, params: PageSearchParams, wording: ElsewhereWording): ReactNode | null {
  if (address?.elsewhere == null) return null;
  const { here, elsewhere } = address;
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight [overflow-wrap:anywhere]">{wording.title}</h1>
      <AddressedElsewhere
        what={wording.what}
        elsewhere={elsewhere}
        here={here.label}
        because={wording.because}
        then="open it"
        hereLink={{ href: addressOn(wording.path, params, here.name), text: wording.instead(here.label) }}
      />
    </div>
  );
}

/** Names the connection shown in an address that names none (an older link, or one made within the tab), once the page is shown. */
export function ConnectionNamedInAddress({ address }: { address: AddressedConnection | null }) {
  return address !== null && !address.named ? <NameConnectionInAddress connection={address.here.name} /> : null;
}
