'use client';

import Link from 'next/link';
import { useState } from 'react';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { formatCount, plural } from '@/components/ui/format-count';
import { EmptyList } from '@/components/ui/section';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { jobOfQueueHref, parseJobIdText } from '@/lib/routes';
import { JobElsewhereOffer } from '@/components/jobs/job-elsewhere';
import { FIND_MATCH_CAP, type FindMatch, type FindQuery, type FindState, type FindTimes } from '@/lib/shapes/find';
import { EveryMatchActions } from './every-match-actions';
import { matchKey, MatchActions, type MatchOffers } from './match-actions';
import type { ListedOutcome } from '@/components/failed/listed-outcomes';
import { useFindSearch, type FindSearch } from './use-find-search';

const STATE_TONES: Readonly<Record<FindState, BadgeTone>> = { ready: 'info', delayed: 'neutral', reserved: 'warning', failed: 'bad' };

/** The match with the bytes around it; job data is shown as text, never as markup. */
function Snippet({ match }: { match: FindMatch }) {
  const { before, match: found, after } = match.snippet;
  return (
    <span className="font-mono text-xs [overflow-wrap:anywhere]">
      <span className="text-zinc-500 dark:text-zinc-400">{match.field}: </span>
      {before}
      <mark className="rounded bg-amber-200 px-0.5 text-zinc-950">{found}</mark>
      {after}
    </span>
  );
}

/** The job's id as a link to its page; unlinked, with why, where the layout says it cannot be opened. */
function FoundJobId({ match }: { match: FindMatch }) {
  if (match.idNote === undefined)
    return (
      <Link href={jobOfQueueHref(match.id, match.queue, match.near)} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
        {match.id}
      </Link>
    );
  return (
    <span className="[overflow-wrap:anywhere]">
      {match.id === '' ? <Absent label="no id" /> : match.id}
      <span className="block font-sans text-xs text-amber-800 dark:text-amber-300">{match.idNote}</span>
    </span>
  );
}

/** What the action did to a row, or nothing where it did not reach it (stopped before, or not its state). */
function outcomeBadge(outcome: ListedOutcome | undefined) {
  return outcome === undefined ? null : <Badge tone={OUTCOME_TONES[outcome]}>{outcome}</Badge>;
}

function progressText(search: FindSearch): string {
  const looked = `Looked at ${formatCount(search.looked)} of about ${plural(Math.max(search.about, search.looked), 'job')}`;
  const found = plural(search.matches.length, 'match', 'matches');
  if (search.error !== null) return `${looked}; ${found}. The search stopped: ${search.error}`;
  if (search.capped) return `${looked}; stopped listing at ${formatCount(FIND_MATCH_CAP)} matches: narrow the search to see the rest.`;
  if (search.stopped) return `${looked}; ${found}. Stopped.`;
  if (search.done) return `${looked}; ${found}. Done.`;
  return `${looked}; ${found} so far…`;
}

const NOTHING_OFFERED: MatchOffers = { retry: false, forget: false, remove: false };

const OUTCOME_TONES: Readonly<Record<ListedOutcome, BadgeTone>> = {
  retried: 'good',
  forgotten: 'good',
  removed: 'good',
  'forgotten or no longer failed': 'good',
  'no longer failed': 'neutral',
  gone: 'neutral',
  'moved on': 'neutral',
  'no longer matched': 'neutral',
  'not retried': 'warning',
  'not removed': 'warning',
};

/** What an action on the listed matches did to each it reached (by matchKey), on the search it was taken on (its JSON). */
interface ActedOn {
  query: string;
  outcomes: ReadonlyMap<string, ListedOutcome>;
}

/** A search's matches as they arrive, its progress, and Stop; once it ends, what can be done to them (`offers`). */
export function FindResults({ query, offers, times }: { query: FindQuery; offers: MatchOffers; times: FindTimes | null }) {
  const { search, stop, again } = useFindSearch(query);
  // The search an action was taken on: its rows are as found before it, each saying what the action did to it, until the search runs again.
  const queryKey = JSON.stringify(query);
  const [actedOn, setActedOn] = useState<ActedOn | null>(null);
  const acted = actedOn?.query === queryKey ? actedOn.outcomes : null;
  const onActed = (outcomes: ReadonlyMap<string, ListedOutcome> = new Map()) => setActedOn({ query: queryKey, outcomes });
  const searchAgain = () => {
    setActedOn(null);
    again();
  };
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center gap-3">
        <p role="status" aria-live="polite" aria-label="Search progress" className="text-sm text-zinc-700 dark:text-zinc-300">
          {progressText(search)}
        </p>
        {search.running && (
          <button type="button" className="button-secondary" onClick={stop}>
            Stop
          </button>
        )}
      </div>
      {search.error !== null && (
        <p role="alert" className="text-sm text-red-700 dark:text-red-300">
          {search.error}
        </p>
      )}
      {!search.running && search.matches.length > 0 && (
        // Rows as found before an action are counted, not offered again: Search again shows what is left to act on.
        <MatchActions query={query} matches={search.matches} offers={acted !== null ? NOTHING_OFFERED : offers} onActed={onActed} />
      )}
      {acted !== null && !search.running && (
        <p role="note" className="flex flex-wrap items-center gap-3 text-sm">
          {acted.size > 0
            ? 'The jobs below are listed as the search found them; After says what that action did to each.'
            : 'The jobs below are listed as the search found them, before that action.'}
          <button type="button" className="button-secondary" onClick={searchAgain}>
            Search again
          </button>
        </p>
      )}
      {search.capped && <EveryMatchActions query={query} offers={offers} times={times} onActed={() => onActed()} />}
      {search.matches.length === 0 ? (
        !search.running &&
        search.error === null && (
          <>
            <EmptyList>
              No job matches “{query.text}”{query.ignoreCase ? ' in any case' : ''}
              {search.stopped ? ' in the part looked at' : ''}.
            </EmptyList>
            {/* An id no job of this connection has may be another connection's. Asked for a search by id only: a word searched anywhere would cost every other connection a look-up. */}
            {search.done && query.field === 'id' && parseJobIdText(query.text) !== null && <JobElsewhereOffer id={query.text} />}
          </>
        )
      ) : (
        <DataTable
          label="Jobs found"
          minWidthClass="min-w-[48rem]"
          head={
            <>
              <HeaderCell>Job</HeaderCell>
              <HeaderCell>State</HeaderCell>
              {acted !== null && acted.size > 0 && <HeaderCell>After</HeaderCell>}
              <HeaderCell>Queue</HeaderCell>
              <HeaderCell>Name</HeaderCell>
              <HeaderCell>Match</HeaderCell>
            </>
          }
        >
          {search.matches.map((match, i) => (
            // Two jobs that name no id (or the same one) are two rows: the place keeps their keys apart.
            <tr key={`${match.queue}\u0000${match.id}\u0000${match.state}\u0000${i}`}>
              <Cell code>
                <FoundJobId match={match} />
              </Cell>
              <Cell>
                <Badge tone={STATE_TONES[match.state]}>{match.state}</Badge>
              </Cell>
              {acted !== null && acted.size > 0 && <Cell>{outcomeBadge(acted.get(matchKey(match)))}</Cell>}
              <Cell>{match.queue === '' ? <Absent label="no queue recorded" /> : match.queue}</Cell>
              <Cell code>{match.name === '' ? <Absent label="no name read" /> : match.name}</Cell>
              <Cell>
                <Snippet match={match} />
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </div>
  );
}
