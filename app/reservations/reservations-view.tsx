'use client';

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
import { Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import type { HolderGroup, ParkedJob, ParkingHazard, ReservationRow, ReservationsPage, ReservationState, ReservationsScope } from '@/lib/queries/reservations';
import { reservationsQuery } from '@/lib/queries/reservations';
import { reservationRowId } from '@/lib/routes';
import { ReservationActions } from './reservation-actions';
import { ReservationsFilter } from './reservations-filter';
import { ReservationsPager } from './reservations-pager';

const OVERDUE_EXPLANATION = 'stats() still counts it reserved; the next reserve on this queue reclaims it.';

const BADGE: Record<ReservationState, { label: string; tone: BadgeTone }> = {
  running: { label: 'Running', tone: 'info' },
  overdue: { label: 'Overdue', tone: 'warning' },
  tombstone: { label: 'Tombstone', tone: 'neutral' },
  mismatch: { label: 'Mismatch', tone: 'bad' },
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
        . A worker with a short timeout that reclaims a job held under a longer one parks it until that deadline instead of
        running it, and a dead holder with a longer timeout leaves its job waiting longer than the reclaiming worker expects.
      </p>
      <p>
        The spec&apos;s advice: <q>The way to avoid both is to run one $config[&apos;queue&apos;][&apos;timeout&apos;] across the fleet.</q>
      </p>
    </Note>
  );
}

function Deadline({ row, now }: { row: ReservationRow; now: number }) {
  const seconds = Number(row.reservedUntil);
  if (row.reservedUntil === '' || !Number.isFinite(seconds) || seconds === 0) return <Absent label="no deadline" />;
  return <UtcMoment seconds={seconds} now={now} />;
}

function Detail({ row }: { row: ReservationRow }) {
  if (row.state === 'tombstone') {
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">{row.jobId === null ? 'The entry itself was deleted; only its pending record is left.' : 'The job hash is gone: nothing to run.'}</p>;
  }
  if (row.state === 'mismatch') {
    return <p className="text-xs text-zinc-600 dark:text-zinc-400">{row.mismatch}. The next reserve that reclaims this entry sorts it out.</p>;
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
        <div className="text-xs text-zinc-500 dark:text-zinc-400">no stream entry</div>
      </Cell>
      <Cell>
        <span className="font-mono text-xs">{job.queue}</span> <span className="text-zinc-500 dark:text-zinc-400">delayed set</span>
      </Cell>
      <Cell>
        <Badge tone="info">Parked</Badge>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          A reclaim arrived before its holder&apos;s deadline, so it waits in the delayed set until then instead of running twice. Parking is
          not an attempt.
        </p>
      </Cell>
      <Cell numeric>
        <Absent label="not pending" />
      </Cell>
      <Cell numeric>
        <Absent label="not pending" />
      </Cell>
      <Cell numeric>{job.attempts === null ? <Absent label="unknown" /> : `${job.attempts}/${job.maxAttempts ?? '?'}`}</Cell>
      <Cell>{Number.isFinite(deadline) && deadline > 0 ? <UtcMoment seconds={deadline} now={now} /> : <Absent label="no deadline" />}</Cell>
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
  const label = group.holder === null ? 'Entries nobody holds' : `Jobs held by ${group.holder}`;
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
          <HeaderCell numeric>Deliveries</HeaderCell>
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
          <Cell numeric label="Deliveries">{formatCount(row.deliveries)}</Cell>
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
  const entries = `${formatCount(group.held)} ${group.held === 1 ? 'entry' : 'entries'}${shown}`;
  if (group.holder === null) return `${entries} in a pending list whose job is gone or no longer points at them.`;
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
        <Stat label="Tombstones" value={counts.tombstone} />
        <Stat label="Mismatches" value={counts.mismatch} />
      </div>
      {reservations.total > 0 && <ChangeControls />}
      {reservations.parkingHazard && <ParkingWarning hazard={reservations.parkingHazard} />}
      {counts.overdue > 0 && (
        <Note title="Overdue jobs">
          <p>
            An overdue job&apos;s claim has run out and nobody has reclaimed it yet. {OVERDUE_EXPLANATION} If no worker reserves from
            that queue any more, release it now or fail it.
          </p>
        </Note>
      )}
      {reservations.truncated && (
        <Note title="Not every reservation is shown">
          <p>
            There are more queues or pending entries than one read looks at; the first {formatCount(reservations.total)} entries are shown
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
            No stream of {reservations.queue !== null ? 'the queue' : reservations.queuesRead === 1 ? 'the one queue' : `the ${formatCount(reservations.queuesRead)} queues`} has an
            entry delivered to a worker and not acknowledged, and no job waits parked until its holder&apos;s deadline.
          </p>
        </div>
      ) : (
        <>
          <ReservationsPager label="Pages of reservations" scope={scope} page={reservations.page} total={reservations.total} />
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
          <ReservationsPager label="Pages of reservations, after the list" scope={scope} page={reservations.page} total={reservations.total} />
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
          Every entry a worker was handed and has not acknowledged, read from the consumer groups&apos; pending lists and joined with
          its job, and every job parked in a delayed set until its holder&apos;s deadline. Who holds a job is its{' '}
          <span className="font-mono">reserved_by</span> (host:pid).
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
