import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { FindForm } from '@/components/find/find-form';
import { FindResults } from '@/components/find/find-results';
import type { MatchOffers } from '@/components/find/match-actions';
import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { SearchElsewhere } from '@/components/find/search-elsewhere';
import { FIND_CONNECTION_PARAM, findSearchHref, singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { FIND_PARAMS_RULE, findParams, findQueryOfParams, readFindScope } from '@/lib/server/find';
import { readFailedRetry } from '@/lib/server/failed';
import { absentCapability, chooseConnection, connections, offeredLineRepairs } from '@/lib/server/queue';
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

/**
 * What to say instead of running `query` when its address names another
 * connection than this browser's; null to run it here. An address that names
 * none (an older one) is sent on to one naming this connection, so that the
 * address bar can be passed to a colleague.
 */
async function searchElsewhere(params: PageSearchParams, query: FindQuery): Promise<ReactNode> {
  const here = await chooseConnection();
  if (!here.ok) return null;
  const hereHref = findSearchHref({ ...query, connection: here.connection.name });
  const named = singleSearchParams(params).get(FIND_CONNECTION_PARAM);
  if (named === null) redirect(hereHref);
  if (named === here.connection.name) return null;
  const label = connections().find((connection) => connection.name === named)?.label ?? null;
  return <SearchElsewhere searched={{ name: named, label }} here={here.connection.label} hereHref={hereHref} />;
}

export default async function FindPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const lacks = await absentCapability('finder');
  if (lacks !== null) return <LayoutLacks title="Find" sentence={lacks} />;
  const params = await searchParams;
  const named = queryFromParams(params);
  const query = named !== null && 'error' in named ? null : named;
  const elsewhere = query === null ? null : await searchElsewhere(params, query);
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
      {elsewhere}
      {query !== null && elsewhere === null && <FindResults query={query} offers={offers} times={scope.ok ? scope.data.times : null} />}
    </div>
  );
}
