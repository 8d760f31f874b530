import type { Metadata } from 'next';
import { FindForm } from '@/components/find/find-form';
import { FindResults } from '@/components/find/find-results';
import type { MatchOffers } from '@/components/find/match-actions';
import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { AddressedElsewhere } from '@/components/shell/addressed-elsewhere';
import { ConnectionNamedInAddress } from '@/app/connection-in-address';
import { addressOn, findHref, singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { addressedConnection } from '@/lib/server/addressed-connection';
import { FIND_PARAMS_RULE, findParams, findQueryOfParams, readFindScope } from '@/lib/server/find';
import { readFailedRetry } from '@/lib/server/failed';
import { absentCapability, offeredLineRepairs } from '@/lib/server/queue';
import { describeRangeScope, isRanged, rangeScope, type FindQuery } from '@/lib/shapes/find';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Find · QueueLens' };

/** The search the address names: null when it names none; an error when it names one that does not parse. */
function queryFromParams(params: PageSearchParams): FindQuery | null | { error: string } {
  const single = singleSearchParams(params);
  if (single.get('text') === null) return null;
  const parsed = findParams.safeParse({
    text: single.get('text') ?? '',
    field: single.get('field') ?? undefined,
    queue: single.get('queue') ?? undefined,
    states: single.get('states') ?? undefined,
    case: single.get('case') ?? undefined,
    from: single.get('from') ?? undefined,
    until: single.get('until') ?? undefined,
  });
  if (!parsed.success) return { error: `This address names no search QueueLens can run: ${FIND_PARAMS_RULE}.` };
  return findQueryOfParams(parsed.data).query;
}

export default async function FindPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const lacks = await absentCapability('finder');
  if (lacks !== null) return <LayoutLacks title="Find" sentence={lacks} />;
  const params = await searchParams;
  const named = queryFromParams(params);
  const query = named !== null && 'error' in named ? null : named;
  const address = query === null ? null : await addressedConnection(params);
  const elsewhere = address?.elsewhere ?? null;
  const [scope, retry, unforgotten, repairs] = await Promise.all([readFindScope(), readFailedRetry(), absentCapability('failedJobs'), offeredLineRepairs()]);
  // The form says what a range applies to on this layout; the page adds a word only when this search's states record no time at all.
  const searchScope = query !== null && isRanged(query.range) && scope.ok ? rangeScope(query, scope.data.states, scope.data.times) : null;
  const offers: MatchOffers = { retry: retry.ok && retry.data.here, forget: unforgotten === null, remove: repairs.remove === null };
  return (
    <div className="space-y-5">
      <h1 className="text-2xl font-semibold tracking-tight">Find</h1>
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        Any job by its id, its name or class, or a piece of its payload or error, in every state. Text is matched byte for byte, case-sensitive unless Ignore
        case is ticked; an id must be equal. The search reads a bounded chunk at a time and stops when you leave the page.
      </p>
      {named !== null && 'error' in named && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {named.error}
        </p>
      )}
      {!scope.ok && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {scope.error}
        </p>
      )}
      <FindForm query={query} queues={scope.ok ? scope.data.queues : []} states={scope.ok ? scope.data.states : []} times={scope.ok ? scope.data.times : {}} />
      {searchScope !== null && searchScope.applies.length === 0 && (
        <p role="status" className="text-sm text-amber-800 dark:text-amber-300">
          {describeRangeScope(searchScope)}
        </p>
      )}
      <ConnectionNamedInAddress address={address} />
      {address !== null && elsewhere !== null && (
        <AddressedElsewhere
          what="This search"
          elsewhere={elsewhere}
          here={address.here.label}
          because="so the search has not run"
          then="search"
          hereLink={{ href: addressOn(findHref, params, address.here.name), text: `Search ${address.here.label} instead` }}
        />
      )}
      {query !== null && elsewhere === null && <FindResults query={query} offers={offers} times={scope.ok ? scope.data.times : null} />}
    </div>
  );
}
