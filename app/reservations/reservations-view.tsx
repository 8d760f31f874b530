'use client';

import type { Route } from 'next';
import { JobNameAndNote, OptionalFigure, QueueJobLink } from '@/components/layouts/layout-job-cells';
import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { PageLinks } from '@/components/layouts/page-links';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { JobLink } from '@/components/queues/job-link';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { UtcMoment } from '@/components/ui/moment';
import { Note } from '@/components/ui/note';
import { Pager } from '@/components/ui/pager';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { sentence } from '@/components/ui/sentence';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import {
  PAGE_ROWS,
  type Claim,
  type ClaimState,
  type ExpiringReservation,
  type ExpiringReservationsPage,
  type HolderReservations,
  type LineRepairOffer,
  type ParkedReservation,
  type ReservationsByHolder,
} from '@/lib/layouts/pages';
import { reservationsQuery, reservationsSearch, type ReservationsScope } from '@/lib/queries/reservations';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { reservationRowId, reservationsHref } from '@/lib/routes';
import { reclaimLiveJob, releaseExpiredJob } from '../queues/[queue]/line-actions';
import type { SeenPlace } from '@/lib/shapes/job-location';
import { ReservationActions } from './reservation-actions';
import { ReservationsFilter } from './reservations-filter';

/** What the layout lets the page do to a reservation: its line repairs, and its claim repairs (null when offered, else why not). */
export interface ReservationRepairOffer {
  line: LineRepairOffer;
  claims: string | null;
}

function reservationsPageHref(scope: ReservationsScope, page: number): Route {
  return `${reservationsHref}${reservationsSearch({ ...scope, page })}` as Route;
}

const OVERDUE_EXPLANATION = 'It still counts as reserved until the next worker that takes a job from this queue takes it back and runs it again.';

const BADGE: Record<ClaimState, { label: string; tone: BadgeTone }> = {
  running: { label: 'Running', tone: 'info' },
  overdue: { label: 'Overdue', tone: 'warning' },
  tombstone: { label: 'Job gone', tone: 'neutral' },
  mismatch: { label: 'Out of date', tone: 'bad' },
};

function StateBadge({ state }: { state: ClaimState }) {
  const { label, tone } = BADGE[state];
  return <Badge tone={tone}>{label}</Badge>;
}

function ParkingWarning({ hazard }: { hazard: NonNullable<ReservationsByHolder['parkingHazard']> }) {
  return (
    <Note title="Workers are claiming jobs with different timeouts" role="alert">
      <p>
        Judging by their claims,{' '}
        {hazard.holders.map(({ holder, timeoutSeconds }, index) => (
          <span key={holder}>
            {index > 0 && (index === hazard.holders.length - 1 ? ' and ' : ', ')}
            <span className="font-mono [overflow-wrap:anywhere]">{holder}</span> uses {formatDuration(timeoutSeconds)}
          </span>
        ))}
        . A worker with a short timeout that tries to take back a job held under a longer one parks it until that deadline instead of running it, and a stopped
        holder with a longer timeout leaves its job waiting longer than the other workers expect.
      </p>
      <p>
        To avoid both, give every worker the same timeout (<span className="font-mono">$config[&apos;queue&apos;][&apos;timeout&apos;]</span>).
      </p>
    </Note>
  );
}

function ClaimDetail({ claim }: { claim: Claim }) {
  if (claim.state === 'tombstone') {
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {claim.jobId === null
          ? 'Its entry was deleted too; only the record that it was handed out is left.'
          : 'The job was deleted while a worker held it: nothing to run.'}
      </p>
    );
  }
  if (claim.state === 'mismatch') {
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        {sentence(claim.mismatch ?? 'the job no longer agrees with this hand-out')}. The next worker that takes a job from this queue clears it.
      </p>
    );
  }
  return null;
}

/** Attempts as the holder's layout stores them: used of at most, or unknown once the job is gone. */
function StoredAttempts({ attempts, maxAttempts }: { attempts: string | null; maxAttempts: string | null }) {
  return attempts === null ? <Absent label="unknown" /> : <>{`${attempts}/${maxAttempts ?? '?'}`}</>;
}

/** A deadline as stored: the moment, or a dash when there is none. */
function StoredDeadline({ seconds, now }: { seconds: number | null; now: number }) {
  return seconds === null ? <Absent label="no deadline" /> : <UtcMoment seconds={seconds} now={now} />;
}

/** An expired reservation goes back in line at once; a live one is ended only after the operator is told its job may run twice. */
function LineRepair({ queue, id, near, expired, repairs }: { queue: string; id: string; near?: SeenPlace; expired: boolean; repairs: LineRepairOffer }) {
  const subject = `job ${id} on ${queue}`;
  const whyNot = expired ? repairs.releaseExpired : repairs.reclaim;
  if (whyNot !== null) return <span className="text-xs text-zinc-600 dark:text-zinc-400">{whyNot}</span>;
  if (expired) {
    return (
      <LineRepairButton
        label="Put back in line"
        busyLabel="Putting back…"
        subject={subject}
        action={() => releaseExpiredJob({ queue, id, near }, getTabConnection())}
        done={`Job ${id} is back in line on ${queue}, where its driver would have put it.`}
        unchanged={`Job ${id} is no longer reserved: a worker took it back first.`}
      />
    );
  }
  return (
    <LineRepairButton
      label="End reservation…"
      busyLabel="Ending…"
      subject={subject}
      tone="danger"
      question={{
        title: `End the reservation of job ${id}?`,
        confirmLabel: `End job ${id}'s reservation`,
        body: (
          <p>
            Its time has not run out, and nothing in Redis says whether a worker is still running it. If one is, the job runs twice: there and once more from
            the line it goes back to.
          </p>
        ),
      }}
      action={() => reclaimLiveJob({ queue, id, near }, getTabConnection())}
      done={`Job ${id}'s reservation ended: it goes back in line (under drivers that move jobs only as they reserve, at their next reserve).`}
      unchanged={`Job ${id} is no longer reserved.`}
    />
  );
}

/** A row's repairs: the claim repairs where the row carries its claim, else the line repairs. */
function RowRepair({ row, queue, repairs }: { row: ExpiringReservation; queue: string; repairs: ReservationRepairOffer }) {
  const { claim } = row;
  if (claim === undefined) return <LineRepair queue={queue} id={row.id} near={row.near} expired={row.expired} repairs={repairs.line} />;
  if (repairs.claims !== null) return <span className="text-xs text-zinc-600 dark:text-zinc-400">{repairs.claims}</span>;
  return (
    <ReservationActions
      row={{
        queue,
        level: claim.level,
        entry: claim.entry,
        jobId: claim.jobId,
        state: claim.state,
        reservedBy: claim.holder,
        reservedUntil: claim.reservedUntil,
        attempts: claim.attempts,
      }}
    />
  );
}

function ParkedRow({ job, now, withActions, withPriority }: { job: ParkedReservation; now: number; withActions: boolean; withPriority: boolean }) {
  const deadline = Number(job.reservedUntil);
  return (
    <tr>
      <Cell>
        <JobLink id={job.jobId} />
        <div className="text-xs text-zinc-500 dark:text-zinc-400">not in a level</div>
      </Cell>
      <Cell label="Class">
        <JobNameAndNote name={job.name} note={null} />
      </Cell>
      <Cell label="Queue, level">
        <span className="font-mono text-xs">{job.queue}</span> <span className="text-zinc-500 dark:text-zinc-400">with the delayed jobs</span>
      </Cell>
      <Cell label="State">
        <Badge tone="info">Parked</Badge>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          A worker tried to take it back before its holder&apos;s deadline, so it waits with the delayed jobs until then instead of running twice. Parking is
          not an attempt.
        </p>
      </Cell>
      <Cell numeric label="Idle">
        <Absent label="not handed out" />
      </Cell>
      <Cell numeric label="Handed out">
        <Absent label="not handed out" />
      </Cell>
      <Cell label="Expires">
        <StoredDeadline seconds={Number.isFinite(deadline) && deadline > 0 ? deadline : null} now={now} />
      </Cell>
      <Cell numeric label="Attempts">
        <StoredAttempts attempts={job.attempts} maxAttempts={job.maxAttempts} />
      </Cell>
      {withPriority && (
        <Cell numeric label="Priority">
          <Absent label="no priority" />
        </Cell>
      )}
      {withActions && (
        <Cell label="Actions">
          <Absent label="nothing to repair: it runs once the deadline passes" />
        </Cell>
      )}
    </tr>
  );
}

/**
 * One table of reservations: the columns every layout fills, and the
 * holder's hand-out (queue and level, claim state, idle time, deliveries)
 * where the rows carry their claim. `queue`: the queue every row is of, when
 * the table is one queue's.
 */
function ReservationsTable({
  label,
  rows,
  parked = [],
  queue,
  now,
  repairs,
  reservedSinceUnknown,
}: {
  label: string;
  rows: ExpiringReservation[];
  parked?: ParkedReservation[];
  queue?: string;
  now: number;
  repairs: ReservationRepairOffer;
  reservedSinceUnknown: string;
}) {
  const claimed = parked.length > 0 || rows.some((row) => row.claim !== undefined);
  const prioritized = rows.some((row) => row.priority !== null);
  const offered = claimed ? repairs.claims === null : repairs.line.releaseExpired === null || repairs.line.reclaim === null;
  const withActions = useChangePermission().allowed && offered;
  const queueOf = (row: ExpiringReservation) => queue ?? row.claim?.queue ?? '';
  return (
    <DataTable
      label={label}
      minWidthClass={claimed ? 'min-w-[64rem]' : 'min-w-[44rem]'}
      stacked
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Class</HeaderCell>
          {claimed && <HeaderCell>Queue, level</HeaderCell>}
          <HeaderCell>State</HeaderCell>
          {claimed && <HeaderCell numeric>Idle</HeaderCell>}
          {claimed && <HeaderCell numeric>Handed out</HeaderCell>}
          <HeaderCell>Expires</HeaderCell>
          {!claimed && <HeaderCell>Reserved since</HeaderCell>}
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
          {withActions && <HeaderCell>Actions</HeaderCell>}
        </>
      }
    >
      {rows.map((row) => {
        const { claim } = row;
        const rowQueue = queueOf(row);
        return (
          <tr
            key={claim ? `${claim.stream} ${claim.entry}` : row.id}
            id={claim ? reservationRowId({ queue: rowQueue, level: claim.level, entry: claim.entry }) : undefined}
          >
            <Cell>
              {claim === undefined ? (
                <QueueJobLink id={row.id} queue={rowQueue} near={row.near} />
              ) : claim.jobId === null ? (
                <Absent label="no job id" />
              ) : (
                <JobLink id={claim.jobId} />
              )}
              {claim && <div className="font-mono text-xs text-zinc-500 dark:text-zinc-400">entry {claim.entry}</div>}
            </Cell>
            <Cell label="Class">{claim?.jobId === null ? <Absent label="no job" /> : <JobNameAndNote name={row.name} note={row.note} />}</Cell>
            {claimed && (
              <Cell label="Queue, level">
                {claim && (
                  <>
                    <span className="font-mono text-xs">{rowQueue}</span> <span className="text-zinc-500 dark:text-zinc-400">level {claim.level}</span>
                  </>
                )}
              </Cell>
            )}
            <Cell label="State">
              {claim ? (
                <>
                  <StateBadge state={claim.state} />
                  <ClaimDetail claim={claim} />
                </>
              ) : row.expired ? (
                <Badge tone="warning">Expired</Badge>
              ) : (
                <Badge tone="info">Live</Badge>
              )}
            </Cell>
            {claimed && (
              <Cell numeric label="Idle">
                {claim && formatDuration(claim.idleMs / 1000)}
              </Cell>
            )}
            {claimed && (
              <Cell numeric label="Handed out">
                {claim && `${formatCount(claim.deliveries)}×`}
              </Cell>
            )}
            <Cell label="Expires">
              <StoredDeadline seconds={row.expiresAt} now={now} />
            </Cell>
            {!claimed && (
              <Cell label="Reserved since">
                {row.reservedSince === null ? <Absent label={reservedSinceUnknown} /> : <UtcMoment seconds={row.reservedSince} now={now} />}
              </Cell>
            )}
            <Cell label="Attempts" numeric>
              {claim ? <StoredAttempts attempts={claim.attempts} maxAttempts={claim.maxAttempts} /> : row.attempts}
            </Cell>
            {prioritized && (
              <Cell label="Priority" numeric>
                <OptionalFigure value={row.priority} missing="no priority" />
              </Cell>
            )}
            {withActions && (
              <Cell label="Actions">
                <RowRepair row={row} queue={rowQueue} repairs={repairs} />
              </Cell>
            )}
          </tr>
        );
      })}
      {parked.map((job) => (
        <ParkedRow key={`${job.queue} ${job.jobId}`} job={job} now={now} withActions={withActions} withPriority={prioritized} />
      ))}
    </DataTable>
  );
}

function holderDescription(group: HolderReservations): string {
  const shown = group.rows.length < group.held ? `, ${formatCount(group.rows.length)} on this page` : '';
  const entries = `${formatCount(group.held)} ${group.held === 1 ? 'job' : 'jobs'}${shown}`;
  if (group.holder === null)
    return `${formatCount(group.held)} left-over ${group.held === 1 ? 'hand-out' : 'hand-outs'}${shown}: the job is gone, or has moved on since.`;
  const parked = group.parked.length === 0 ? '' : `, ${formatCount(group.parked.length)} parked ${group.parked.length === 1 ? 'job' : 'jobs'}`;
  const count = group.held === 0 ? parked.slice(2) : `${entries}${parked}`;
  return group.timeoutSeconds === null ? count : `${count}; its claims imply a timeout of ${formatDuration(group.timeoutSeconds)}.`;
}

/** The reservations of a layout that records holders: figures over every page, then this page's rows by holder. */
function ByHolder({
  byHolder,
  now,
  scope,
  repairs,
  readAmong,
}: {
  byHolder: ReservationsByHolder;
  now: number;
  scope: ReservationsScope;
  repairs: ReservationRepairOffer;
  /** only some of the queues were read (ReadAmongNote) */
  readAmong: boolean;
}) {
  const { counts } = byHolder;
  return (
    <>
      <ReservationsFilter queues={byHolder.queueNames} queue={byHolder.queue} />
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <Stat label="Running" value={counts.running} />
        <Stat label="Overdue" value={counts.overdue} />
        <Stat label="Parked" value={byHolder.parkedTotal} />
        <Stat label="Job gone" value={counts.tombstone} />
        <Stat label="Out of date" value={counts.mismatch} />
      </div>
      {byHolder.total > 0 && repairs.claims === null && <ChangeControls />}
      {byHolder.parkingHazard && <ParkingWarning hazard={byHolder.parkingHazard} />}
      {counts.overdue > 0 && (
        <Note title="Overdue jobs">
          <p>
            An overdue job&apos;s claim has run out and no worker has taken it back yet. {OVERDUE_EXPLANATION} If no worker takes jobs from that queue any more,
            release it now or fail it.
          </p>
        </Note>
      )}
      {byHolder.truncated && (
        <Note title="Not every reservation is shown">
          <p>
            There are more queues or reserved jobs than one read looks at; the first {formatCount(byHolder.total)} are shown
            {byHolder.queue === null ? '. Filter by a queue to see all of its own.' : '.'}
          </p>
        </Note>
      )}
      {byHolder.errors.map(({ stream, error }) => (
        <Banner key={stream} title={`Cannot read ${stream}`}>
          {error}
        </Banner>
      ))}
      {byHolder.total === 0 && byHolder.parkedTotal === 0 ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">{byHolder.queue === null ? 'No job is reserved.' : `No job of ${byHolder.queue} is reserved.`}</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            No worker holds a job of{' '}
            {byHolder.queue !== null
              ? 'the queue'
              : readAmong
                ? 'the queues read'
                : byHolder.queuesRead === 1
                  ? 'the one queue'
                  : `the ${formatCount(byHolder.queuesRead)} queues`}
            , and no job waits parked until a holder&apos;s deadline.
          </p>
        </div>
      ) : (
        <>
          <Pager
            label="Pages of reservations"
            rows="Reservations"
            window={byHolder.window}
            total={byHolder.total}
            hrefOf={(page) => reservationsPageHref(scope, page)}
          />
          {byHolder.groups.map((group) => (
            <Section
              key={group.holder ?? ''}
              title={
                group.holder === null ? (
                  'Held by nobody'
                ) : (
                  <>
                    Held by <span className="font-mono [overflow-wrap:anywhere]">{group.holder}</span>
                  </>
                )
              }
              description={holderDescription(group)}
            >
              <ReservationsTable
                label={group.holder === null ? 'Hand-outs nobody holds' : `Jobs held by ${group.holder}`}
                rows={group.rows}
                parked={group.parked}
                now={now}
                repairs={repairs}
                reservedSinceUnknown="not handed out"
              />
            </Section>
          ))}
          <Pager
            label="Pages of reservations, after the list"
            rows="Reservations"
            window={byHolder.window}
            total={byHolder.total}
            hrefOf={(page) => reservationsPageHref(scope, page)}
          />
        </>
      )}
    </>
  );
}

/**
 * Which queues were read, where a connection of many queues was not read
 * whole for every poll (lib/server/reservations.ts): said, so that a queue
 * left out is not taken for one without reservations.
 */
function ReadAmongNote({ readAmong, now }: { readAmong: NonNullable<ExpiringReservationsPage['readAmong']>; now: number }) {
  const { queues, of, countedAt } = readAmong;
  const read = queues === 0 ? 'none had' : queues === 1 ? 'the one that had' : `the ${formatCount(queues)} that had`;
  const verb = queues === 0 ? ': none is read here.' : queues === 1 ? ' is read here, every few seconds.' : ' are read here, every few seconds.';
  return (
    <p className="rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">
      Of the {formatCount(of)} queues, {read} jobs reserved at the count of <UtcMoment seconds={countedAt} now={now} />
      {verb} The filter reads any other queue whole, now.
    </p>
  );
}

/** The reservations of a layout that records no holder: each queue's, soonest expiry first, a page of each. */
function ByQueue({ page, scope, repairs }: { page: ExpiringReservationsPage; scope: ReservationsScope; repairs: ReservationRepairOffer }) {
  return (
    <>
      {page.holderAbsent !== undefined && (
        <p className="rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">{page.holderAbsent}.</p>
      )}
      {page.queues.length === 0 && <EmptyList>No job is reserved.</EmptyList>}
      {page.queues.map((reservations) => (
        <Section
          key={reservations.queue}
          title={
            <span className="[overflow-wrap:anywhere]">
              Queue <span className="font-mono">{reservations.queue}</span>
            </span>
          }
          description={reservations.expiredMeans}
        >
          <div className="grid grid-cols-3 gap-4">
            <Stat label="Reserved" value={reservations.total} />
            <Stat label="Live" value={reservations.live} />
            <Stat label="Expired" value={reservations.expired} />
          </div>
          {reservations.rows.length > 0 ? (
            <ReservationsTable
              label={`Reservations of ${reservations.queue}`}
              rows={reservations.rows}
              queue={reservations.queue}
              now={page.now}
              repairs={repairs}
              reservedSinceUnknown={page.reservedSinceUnknown ?? 'not known: the message has no TTR'}
            />
          ) : (
            <EmptyList>{reservations.total > 0 ? 'No reservations on this page.' : 'No job of this queue is reserved.'}</EmptyList>
          )}
          <PageLinks
            label={`Pages of the reservations of ${reservations.queue}`}
            page={scope.page}
            pageRows={PAGE_ROWS}
            total={reservations.total}
            hrefOf={(target) => reservationsPageHref(scope, target)}
          />
        </Section>
      ))}
    </>
  );
}

/**
 * Every job handed to a worker and not finished yet, live, 25 a page: by the
 * worker holding it where the layout records holders (with their claims and
 * the claim repairs), else each queue's with its expiry (and the line
 * repairs). `repairs`: what the layout offers (the session may too).
 */
export function ReservationsView({ scope, repairs }: { scope: ReservationsScope; repairs: ReservationRepairOffer }) {
  const view = useLiveQuery(reservationsQuery(scope));
  const page = view.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Reservations</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every job handed to a worker and not finished yet
          {page === undefined
            ? '.'
            : page.byHolder
              ? ', by the worker holding it (its host and process id), and every job parked until its holder’s deadline.'
              : ', with when its reservation runs out.'}{' '}
          <GlossaryLink>What these words mean</GlossaryLink>
        </p>
      </div>
      <LiveErrorBanner title="Cannot read the reservations" view={view} />
      {page?.readAmong && <ReadAmongNote readAmong={page.readAmong} now={page.now} />}
      {page === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the reservations…</p>
      ) : page.byHolder ? (
        <ByHolder byHolder={page.byHolder} now={page.now} scope={scope} repairs={repairs} readAmong={page.readAmong !== undefined} />
      ) : (
        <ByQueue page={page} scope={scope} repairs={repairs} />
      )}
    </div>
  );
}
