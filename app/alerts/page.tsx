import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { SilenceControl } from '@/components/alerts/silence-control';
import { describeMark, MARK_TITLES } from '@/components/queues/describe-mark';
import { Badge } from '@/components/ui/badge';
import { Callout } from '@/components/ui/banner';
import { UtcMoment } from '@/components/ui/moment';
import { EmptyList, Section } from '@/components/ui/section';
import { Cell, DataTable, HeaderCell, RowHeaderCell } from '@/components/ui/table';
import type { AlertsPage as AlertsData } from '@/lib/server/alerts';
import { authenticate } from '@/lib/server/access';
import { readAlertsPage } from '@/lib/server/alerts';
import { alertsHref, type PageSearchParams } from '@/lib/routes';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';

// Read on every request: the marks, silences and notices change by the tick.
export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Alerts · QueueLens' };

/** The marks of the tab's connection now, their silences, the alerts sent lately and where they go; operators silence a mark here. */
export default async function AlertsPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const current = await authenticate();
  if (!current.ok) redirect(`/login?next=${encodeURIComponent(alertsHref)}`);
  const params = await searchParams;
  const { address, elsewhere } = await addressedPage(params, CONNECTION_PAGES.alerts);
  if (elsewhere !== null) return elsewhere;
  const read = await readAlertsPage();
  const canSilence = current.access.role === 'operator';
  return (
    <div className="space-y-8">
      <ConnectionNamedInAddress address={address} />
      <h1 className="text-2xl font-semibold">Alerts</h1>
      {!read.ok ? (
        <Callout title="Cannot read the alerts" tone="error" role="alert">
          {read.error}
        </Callout>
      ) : (
        <>
          <MarkedNow data={read.data} canSilence={canSilence} />
          <Silences data={read.data} canSilence={canSilence} />
          <RecentNotices data={read.data} />
          <Webhooks data={read.data} />
        </>
      )}
    </div>
  );
}

function MarkedNow({ data, canSilence }: { data: AlertsData; canSilence: boolean }) {
  const silenced = new Map(data.silences.map((silence) => [`${silence.kind}\n${silence.queue}`, silence.until]));
  const rows = data.marked.flatMap(({ queue, marks }) => marks.map((mark) => ({ queue, mark, view: describeMark(queue, mark, data.now) })));
  return (
    <Section
      title="Marked now"
      description={`The overview’s marks on ${data.connection} at its latest read. Each is sent to the webhooks when it starts and when it clears, unless it is silenced.${canSilence ? '' : ' Only an operator can silence a mark, and you are signed in as a viewer.'}`}
    >
      {rows.length === 0 ? (
        <EmptyList>No queue is marked.</EmptyList>
      ) : (
        <DataTable label="Marks now" minWidthClass="min-w-[44rem]" stacked head={<MarkHead canSilence={canSilence} />}>
          {rows.map(({ queue, mark, view }) => {
            const until = silenced.get(`${mark.kind}\n${queue}`);
            return (
              <tr key={`${mark.kind}\n${queue}`}>
                <RowHeaderCell>{queue}</RowHeaderCell>
                <Cell label="Mark">
                  <Badge tone="bad">{view.title}</Badge>
                </Cell>
                <Cell label="Found">
                  {view.detail}{' '}
                  <Link href={view.href} className="text-blue-700 underline dark:text-blue-400">
                    {view.action}
                    <span className="sr-only"> ({queue})</span>
                  </Link>
                </Cell>
                <Cell label={canSilence ? 'Silence until…' : 'Alerts'}>
                  {until !== undefined && (
                    <p className="mb-1">
                      Silenced until <UtcMoment seconds={until} now={data.now} />
                    </p>
                  )}
                  {canSilence ? (
                    <SilenceControl queue={queue} kind={mark.kind} title={view.title} silenced={until !== undefined} />
                  ) : (
                    until === undefined && 'Sent'
                  )}
                </Cell>
              </tr>
            );
          })}
        </DataTable>
      )}
    </Section>
  );
}

function MarkHead({ canSilence }: { canSilence: boolean }) {
  return (
    <>
      <HeaderCell>Queue</HeaderCell>
      <HeaderCell>Mark</HeaderCell>
      <HeaderCell>Found</HeaderCell>
      <HeaderCell>{canSilence ? 'Silence until…' : 'Alerts'}</HeaderCell>
    </>
  );
}

function Silences({ data, canSilence }: { data: AlertsData; canSilence: boolean }) {
  return (
    <Section
      title="Silences"
      description="A silenced mark is still shown everywhere; only its alerts wait. Whatever is still marked when a silence ends is sent then."
    >
      {data.silences.length === 0 ? (
        <EmptyList>Nothing is silenced.</EmptyList>
      ) : (
        <DataTable
          label="Running silences"
          minWidthClass="min-w-[36rem]"
          stacked
          head={
            <>
              <HeaderCell>Queue</HeaderCell>
              <HeaderCell>Mark</HeaderCell>
              <HeaderCell>Until</HeaderCell>
              {canSilence && <HeaderCell>Lift it</HeaderCell>}
            </>
          }
        >
          {data.silences.map(({ queue, kind, until }) => (
            <tr key={`${kind}\n${queue}`}>
              <RowHeaderCell>{queue}</RowHeaderCell>
              <Cell label="Mark">{MARK_TITLES[kind]}</Cell>
              <Cell label="Until">
                <UtcMoment seconds={until} now={data.now} />
              </Cell>
              {canSilence && (
                <Cell label="Lift it">
                  <SilenceControl queue={queue} kind={kind} title={MARK_TITLES[kind]} silenced />
                </Cell>
              )}
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

function RecentNotices({ data }: { data: AlertsData }) {
  return (
    <Section
      title="Sent lately"
      description={`The latest ${data.recent.length === 0 ? '' : `${data.recent.length} `}alerts sent, newest first (QueueLens keeps about the last 200).`}
    >
      {data.recent.length === 0 ? (
        <EmptyList>No alert has been sent.</EmptyList>
      ) : (
        <DataTable
          label="Alerts sent, newest first"
          minWidthClass="min-w-[44rem]"
          head={
            <>
              <HeaderCell>Sent</HeaderCell>
              <HeaderCell>Queue</HeaderCell>
              <HeaderCell>Alert</HeaderCell>
              <HeaderCell>Delivered</HeaderCell>
            </>
          }
        >
          {data.recent.map((notice, index) => (
            <tr key={`${notice.at}-${index}`}>
              <Cell>
                <UtcMoment seconds={Math.floor(notice.at / 1000)} now={data.now} />
              </Cell>
              <RowHeaderCell>{notice.queue}</RowHeaderCell>
              <Cell>
                {notice.title} {notice.state === 'started' ? 'started' : 'cleared'}
              </Cell>
              <Cell>
                {notice.failures.length === 0 ? (
                  `to ${notice.webhooks} webhook${notice.webhooks === 1 ? '' : 's'}`
                ) : (
                  <span className="text-red-700 dark:text-red-400">{notice.failures.join('; ')}</span>
                )}
              </Cell>
            </tr>
          ))}
        </DataTable>
      )}
    </Section>
  );
}

function Webhooks({ data }: { data: AlertsData }) {
  return (
    <Section
      title="Webhooks"
      description="Where this connection’s alerts go, set in the connections file’s “notify” (docs/alerts.md). Each is shown by its host only: the rest of a Slack or Teams URL is its secret."
    >
      {data.webhooks.length === 0 ? (
        <EmptyList>This connection sends no alerts: its entry in the connections file has no “notify”.</EmptyList>
      ) : (
        <>
          <ul className="space-y-1 text-sm">
            {data.webhooks.map((webhook, index) => (
              <li key={index}>
                <span className="font-mono">{webhook.host}</span> ({webhook.format}):{' '}
                {webhook.marks === null ? 'every mark' : webhook.marks.map((kind) => MARK_TITLES[kind]).join(', ')} of{' '}
                {webhook.queues === null ? 'every queue' : webhook.queues.join(', ')}
              </li>
            ))}
          </ul>
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            A mark that starts again within {data.repeatMinutes} min of its last alert waits until then.{' '}
            {data.publicUrlSet
              ? 'Alerts link to the page that deals with each mark.'
              : 'Set QUEUELENS_PUBLIC_URL for alerts to carry links a chat can open; they carry the page’s path meanwhile.'}
          </p>
        </>
      )}
    </Section>
  );
}
