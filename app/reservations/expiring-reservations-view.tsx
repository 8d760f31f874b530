'use client';

import type { Route } from 'next';
import { Badge } from '@/components/ui/badge';
import { JobNameAndNote, OptionalFigure, QueueJobLink } from '@/components/layouts/layout-job-cells';
import { LineRepairButton } from '@/components/layouts/line-repair-button';
import { useChangePermission } from '@/components/shell/change-permission';
import { PageLinks } from '@/components/layouts/page-links';
import { LiveErrorBanner } from '@/components/live/live-error-banner';
import { useLiveQuery } from '@/components/live/use-live-query';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList, Section } from '@/components/ui/section';
import { Stat } from '@/components/ui/stat';
import { Absent, Cell, DataTable, HeaderCell } from '@/components/ui/table';
import { PAGE_ROWS, type LineRepairOffer, type QueueReservations } from '@/lib/layouts/pages';
import { expiringReservationsQuery } from '@/lib/queries/layout-pages';
import { reservationsSearch, type ReservationsScope } from '@/lib/queries/reservations';
import { getTabConnection } from '@/lib/queries/tab-connection';
import { reservationsHref } from '@/lib/routes';
import { reclaimLiveJob, releaseExpiredJob } from '../queues/[queue]/line-actions';

/** An expired reservation goes back in line at once; a live one is ended only after the operator is told its job may run twice. */
function ReservationRepair({ queue, id, expired, repairs }: { queue: string; id: string; expired: boolean; repairs: LineRepairOffer }) {
  const subject = `job ${id} on ${queue}`;
  const whyNot = expired ? repairs.releaseExpired : repairs.reclaim;
  if (whyNot !== null) return <span className="text-xs text-zinc-600 dark:text-zinc-400">{whyNot}</span>;
  if (expired) {
    return (
      <LineRepairButton
        label="Put back in line"
        busyLabel="Putting back…"
        subject={subject}
        action={() => releaseExpiredJob({ queue, id }, getTabConnection())}
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
            Its time has not run out, and nothing in Redis says whether a worker is still running it. If one is, the job runs twice: there and
            once more from the line it goes back to.
          </p>
        ),
      }}
      action={() => reclaimLiveJob({ queue, id }, getTabConnection())}
      done={`Job ${id}'s reservation ended: it goes back in line (under drivers that move jobs only as they reserve, at their next reserve).`}
      unchanged={`Job ${id} is no longer reserved.`}
    />
  );
}

function ReservationsTable({ reservations, now, repairs, reservedSinceUnknown }: { reservations: QueueReservations; now: number; repairs: LineRepairOffer; reservedSinceUnknown: string }) {
  const prioritized = reservations.rows.some((row) => row.priority !== null);
  const mayChange = useChangePermission().allowed && (repairs.releaseExpired === null || repairs.reclaim === null);
  const label = `Reservations of ${reservations.queue}`;
  return (
    <DataTable
      label={label}
      minWidthClass="min-w-[44rem]"
      stacked
      head={
        <>
          <HeaderCell>Job</HeaderCell>
          <HeaderCell>Class</HeaderCell>
          <HeaderCell>State</HeaderCell>
          <HeaderCell>Expires</HeaderCell>
          <HeaderCell>Reserved since</HeaderCell>
          <HeaderCell numeric>Attempts</HeaderCell>
          {prioritized && <HeaderCell numeric>Priority</HeaderCell>}
          {mayChange && <HeaderCell>Actions</HeaderCell>}
        </>
      }
    >
      {reservations.rows.map((row) => (
        <tr key={row.id}>
          <Cell>
            <QueueJobLink id={row.id} queue={reservations.queue} />
          </Cell>
          <Cell label="Class">
            <JobNameAndNote name={row.name} note={row.note} />
          </Cell>
          <Cell label="State">{row.expired ? <Badge tone="warning">Expired</Badge> : <Badge tone="info">Live</Badge>}</Cell>
          <Cell label="Expires">
            <UtcMoment seconds={row.expiresAt} now={now} />
          </Cell>
          <Cell label="Reserved since">{row.reservedSince === null ? <Absent label={reservedSinceUnknown} /> : <UtcMoment seconds={row.reservedSince} now={now} />}</Cell>
          <Cell label="Attempts" numeric>
            {row.attempts}
          </Cell>
          {prioritized && (
            <Cell label="Priority" numeric>
              <OptionalFigure value={row.priority} missing="no priority" />
            </Cell>
          )}
          {mayChange && (
            <Cell label="Actions">
              <ReservationRepair queue={reservations.queue} id={row.id} expired={row.expired} repairs={repairs} />
            </Cell>
          )}
        </tr>
      ))}
    </DataTable>
  );
}

/**
 * The reservations page for a layout that records no holder: each queue's
 * reservations, soonest expiry first, live or expired, 25 a page; live.
 * `repairs`: what the layout offers to put one back in line (the session may too).
 */
export function ExpiringReservationsView({ scope, repairs }: { scope: ReservationsScope; repairs: LineRepairOffer }) {
  const view = useLiveQuery(expiringReservationsQuery(scope));
  const page = view.data;
  return (
    <div className="space-y-8">
      <h1 className="text-2xl font-semibold tracking-tight">Reservations</h1>
      <LiveErrorBanner title="Cannot read the reservations" view={view} />
      {page === undefined ? (
        view.isLoading && <p className="text-sm text-zinc-500 dark:text-zinc-400">Reading the reservations…</p>
      ) : (
        <>
          <p className="rounded-md border border-zinc-200 bg-white px-4 py-3 text-sm dark:border-zinc-800 dark:bg-zinc-900">{page.holderAbsent}.</p>
          {page.queues.map((reservations) => (
            <Section key={reservations.queue} title={<span className="[overflow-wrap:anywhere]">Queue <span className="font-mono">{reservations.queue}</span></span>} description={reservations.expiredMeans}>
              <div className="grid grid-cols-3 gap-4">
                <Stat label="Reserved" value={reservations.total} />
                <Stat label="Live" value={reservations.live} />
                <Stat label="Expired" value={reservations.expired} />
              </div>
              {reservations.rows.length > 0 ? (
                <ReservationsTable reservations={reservations} now={page.now} repairs={repairs} reservedSinceUnknown={page.reservedSinceUnknown ?? 'not known: the message has no TTR'} />
              ) : (
                <EmptyList>{reservations.total > 0 ? 'No reservations on this page.' : 'No job of this queue is reserved.'}</EmptyList>
              )}
              <PageLinks
                label={`Pages of the reservations of ${reservations.queue}`}
                page={scope.page}
                pageRows={PAGE_ROWS}
                total={reservations.total}
                hrefOf={(target) => `${reservationsHref}${reservationsSearch({ ...scope, page: target })}` as Route}
              />
            </Section>
          ))}
        </>
      )}
    </div>
  );
}
