import type { ReactNode } from 'react';
import { AddressedElsewhere, NameConnectionInAddress } from '@/components/shell/addressed-elsewhere';
import { addressOn, type PageSearchParams } from '@/lib/routes';
import type { AddressedConnection } from '@/lib/server/addressed-connection';

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
 * What a page shows in its place when its address (an alert's link, a job's
 * address passed on) names another connection than the one this browser
 * shows: its heading and a note offering to switch, or to open the same page
 * here. Null when the page may be shown.
 */
export function shownElsewhere(address: AddressedConnection | null, params: PageSearchParams, wording: ElsewhereWording): ReactNode | null {
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
