'use client';

import type { Route } from 'next';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { JobLink, JobName } from '@/components/queues/job-link';
import { ChangeControls, useChangePermission } from '@/components/shell/change-permission';
import { Badge, type BadgeTone } from '@/components/ui/badge';
import { Banner } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import { formatDuration } from '@/components/ui/format-duration';
import { UtcMoment } from '@/components/ui/moment';
import { Note } from '@/components/ui/note';
import { Pager } from '@/components/ui/pager';
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import type { HolderGroup, ParkedJob, ParkingHazard, ReservationRow, ReservationsPage, ReservationState, ReservationsScope } from '@/lib/queries/reservations';
import { reservationsQuery, reservationsSearch } from '@/lib/queries/reservations';
import { reservationRowId, reservationsHref } from '@/lib/routes';
import { ReservationActions } from './reservation-actions';
import { ReservationsFilter } from './reservations-filter';

function reservationsPageHref(scope: ReservationsScope, page: number): Route {
  return `${reservationsHref}${reservationsSearch({ ...scope, page })}` as Route;
}

const OVERDUE_EXPLANATION = 'It still counts as reserved until the next worker that takes a job from this queue takes it back and runs it again.';

const BADGE: Record<ReservationState, { label: string; tone: BadgeTone }> = {
  running: { label: 'Running', tone: 'info' },
  overdue: { label: 'Overdue', tone: 'warning' },
  tombstone: { label: 'Job gone', tone: 'neutral' },
  mismatch: { label: 'Out of date', tone: 'bad' },
};

function StateBadge({ state }: { state: ReservationState }) {
  const { label, tone } = BADGE[state];
  return <Badge tone={tone}>{label}</Badge>;
}

function ParkingWarning({ hazard }: { hazard: ParkingHazard }) {
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
        . A worker with a short timeout that tries to take back a job held under a longer one parks it until that deadline
        instead of running it, and a stopped holder with a longer timeout leaves its job waiting longer than the other workers
        expect.
      </p>
      <p>
        To avoid both, give every worker the same timeout (<span className="font-mono">$config[&apos;queue&apos;][&apos;timeout&apos;]</span>).
      </p>
    </Note>
  );
}

function Deadline({ row, now }: { row: ReservationRow; now: number }) {
  const seconds = Number(row.reservedUntil);
  if (row.reservedUntil === '' || !Number.isFinite(seconds) || seconds === 0) return <Absent label="no deadline" />;
  return <UtcMoment seconds={seconds} now={now} />;
}

/** A clause as the start of a sentence. */
function sentence(clause: string): string {
  return clause.charAt(0).toUpperCase() + clause.slice(1);
}

function Detail({ row }: { row: ReservationRow }) {
  if (row.state === 'tombstone') {
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">{row.jobId === null ? 'Its entry was deleted too; only the record that it was handed out is left.' : 'The job was deleted while a worker held it: nothing to run.'}</p>;
  }
  if (row.state === 'mismatch') {
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">{sentence(row.mismatch ?? 'the job no longer agrees with this hand-out')}. The next worker that takes a job from this queue clears it.</p>;
  }
  return null;
}

function ParkedRow({ job, now, canChange }: { job: ParkedJob; now: number; canChange: boolean }) {
  const deadline = Number(job.reservedUntil);
  return (
    <tr>
      <Cell>
        <JobLink id={job.jobId} />
        <div className="mt-0.5">
          <JobName name={job.name} />
        </div>
        <div className="text-xs text-zinc-500 dark:text-zinc-400">not in a level</div>
      </Cell>
      <Cell label="Queue, level">
        <span className="font-mono text-xs">{job.queue}</span> <span className="text-zinc-500 dark:text-zinc-400">with the delayed jobs</span>
      </Cell>
      <Cell label="State">
        <Badge tone="info">Parked</Badge>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          A worker tried to take it back before its holder&apos;s deadline, so it waits with the delayed jobs until then instead of
          running twice. Parking is not an attempt.
        </p>
      </Cell>
      <Cell numeric label="Idle">
        <Absent label="not handed out" />
      </Cell>
      <Cell numeric label="Handed out">
        <Absent label="not handed out" />
      </Cell>
      <Cell numeric label="Attempts">{job.attempts === null ? <Absent label="unknown" /> : `${job.attempts}/${job.maxAttempts ?? '?'}`}</Cell>
      <Cell label="Deadline">{Number.isFinite(deadline) && deadline > 0 ? <UtcMoment seconds={deadline} now={now} /> : <Absent label="no deadline" />}</Cell>
      {canChange && (
        <Cell>
          <Absent label="nothing to repair: it runs once the deadline passes" />
        </Cell>
      )}
    </tr>
  );
}

function HolderTable({ group, now }: { group: HolderGroup; now: number }) {
  const canChange = useChangePermission().allowed;
  const label = group.holder === null ? 'Hand-outs nobody holds' : `Jobs held by ${group.holder}`;
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[64rem]"
      stacked
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Queue, level</HeaderCell>
          <HeaderCell>State</HeaderCell>
          <HeaderCell numeric>Idle</HeaderCell>
          <HeaderCell numeric>Handed out</HeaderCell>
          <HeaderCell numeric>Attempts</HeaderCell>
          <HeaderCell>Deadline</HeaderCell>
          {canChange && <HeaderCell>Actions</HeaderCell>}
        </>
      }
    >
      {group.rows.map((row) => (
        <tr key={`${row.stream} ${row.entry}`} id={reservationRowId(row)}>
          <Cell>
            {row.jobId === null ? <Absent label="no job id" /> : <JobLink id={row.jobId} />}
            <div className="mt-0.5">{row.jobId === null ? null : <JobName name={row.name} />}</div>
            <div className="font-mono text-xs text-zinc-500 dark:text-zinc-400">entry {row.entry}</div>
          </Cell>
          <Cell label="Queue, level">
            <span className="font-mono text-xs">{row.queue}</span> <span className="text-zinc-500 dark:text-zinc-400">level {row.level}</span>
          </Cell>
          <Cell label="State">
            <StateBadge state={row.state} />
            <Detail row={row} />
          </Cell>
          <Cell numeric label="Idle">{formatDuration(row.idleMs / 1000)}</Cell>
          <Cell numeric label="Handed out">{`${formatCount(row.deliveries)}×`}</Cell>
          <Cell numeric label="Attempts">{row.attempts === null ? <Absent label="unknown" /> : `${row.attempts}/${row.maxAttempts ?? '?'}`}</Cell>
          <Cell label="Deadline">
            <Deadline row={row} now={now} />
          </Cell>
          {canChange && (
            <Cell>
              <ReservationActions row={row} />
            </Cell>
          )}
        </tr>
      ))}
      {group.parked.map((job) => (
        <ParkedRow key={`${job.queue} ${job.jobId}`} job={job} now={now} canChange={canChange} />
      ))}
    </DataTable>
  );
}

function holderDescription(group: HolderGroup): string {
  const shown = group.rows.length < group.held ? `, ${formatCount(group.rows.length)} on this page` : '';
  const entries = `${formatCount(group.held)} ${group.held === 1 ? 'job' : 'jobs'}${shown}`;
  if (group.holder === null) return `${formatCount(group.held)} left-over ${group.held === 1 ? 'hand-out' : 'hand-outs'}${shown}: the job is gone, or has moved on since.`;
  const parked = group.parked.length === 0 ? '' : `, ${formatCount(group.parked.length)} parked ${group.parked.length === 1 ? 'job' : 'jobs'}`;
  const count = group.held === 0 ? parked.slice(2) : `${entries}${parked}`;
  return group.timeoutSeconds === null ? count : `${count}; its claims imply a timeout of ${formatDuration(group.timeoutSeconds)}.`;
}

function Body({ reservations, scope }: { reservations: ReservationsPage; scope: ReservationsScope }) {
  const { counts, now } = reservations;
  return (
    <>
      <div className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <Stat label="Running" value={counts.running} />
        <Stat label="Overdue" value={counts.overdue} />
        <Stat label="Parked" value={reservations.parkedTotal} />
        <Stat label="Job gone" value={counts.tombstone} />
        <Stat label="Out of date" value={counts.mismatch} />
      </div>
      {reservations.total > 0 && <ChangeControls />}
      {reservations.parkingHazard && <ParkingWarning hazard={reservations.parkingHazard} />}
      {counts.overdue > 0 && (
        <Note title="Overdue jobs">
          <p>
            An overdue job&apos;s claim has run out and no worker has taken it back yet. {OVERDUE_EXPLANATION} If no worker takes
            jobs from that queue any more, release it now or fail it.
          </p>
        </Note>
      )}
      {reservations.truncated && (
        <Note title="Not every reservation is shown">
          <p>
            There are more queues or reserved jobs than one read looks at; the first {formatCount(reservations.total)} are shown
            {reservations.queue === null ? '. Filter by a queue to see all of its own.' : '.'}
          </p>
        </Note>
      )}
      {reservations.errors.map(({ stream, error }) => (
        <Banner key={stream} title={`Cannot read ${stream}`}>
          {error}
        </Banner>
      ))}
      {reservations.total === 0 && reservations.parkedTotal === 0 ? (
        <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
          <p className="font-semibold">{reservations.queue === null ? 'No job is reserved.' : `No job of ${reservations.queue} is reserved.`}</p>
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            No worker holds a job of {reservations.queue !== null ? 'the queue' : reservations.queuesRead === 1 ? 'the one queue' : `the ${formatCount(reservations.queuesRead)} queues`},
            and no job waits parked until a holder&apos;s deadline.
          </p>
        </div>
      ) : (
        <>
          <Pager label="Pages of reservations" rows="Reservations" window={reservations.page} total={reservations.total} hrefOf={(page) => reservationsPageHref(scope, page)} />
          {reservations.holders.map((group) => (
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
              <HolderTable group={group} now={now} />
            </Section>
          ))}
          <Pager label="Pages of reservations, after the list" rows="Reservations" window={reservations.page} total={reservations.total} hrefOf={(page) => reservationsPageHref(scope, page)} />
          </>
      )}
    </>
  );
}

/** Every job delivered to a worker and not acknowledged, live, by the worker holding it, with repairs. */
export function ReservationsView({ scope }: { scope: ReservationsScope }) {
  const view = useLiveQuery(reservationsQuery(scope));
  const reservations = view.data;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">Reservations</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Every job handed to a worker and not finished yet, by the worker holding it (its host and process id), and every job parked
          until its holder&apos;s deadline. <GlossaryLink>What these words mean</GlossaryLink>
        </p>
      </div>
      <LiveErrorBanner title="Cannot read the reservations" view={view} />
      {reservations === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the reservations…</p>
      ) : (
        <>
          <ReservationsFilter queues={reservations.queues} queue={reservations.queue} />
          <Body reservations={reservations} scope={scope} />
        </>
      )}
    </div>
  );
}
