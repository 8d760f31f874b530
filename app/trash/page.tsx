import type { Metadata } from 'next';
import { LayoutLacks } from '@/components/layouts/layout-lacks';
import { TrashFilterForm } from '@/components/trash/trash-filter';
import { TrashList } from '@/components/trash/trash-list';
import { formatBytes } from '@/components/key-layout/format-bytes';
import { Note } from '@/components/ui/note';
import { trashSettingsFromEnv } from '@/lib/dashboard/trash-settings';
import { pageWindow } from '@/lib/queries/page-window';
import { singleSearchParams, type PageSearchParams } from '@/lib/routes';
import { absentCapability } from '@/lib/server/queue';
import { readTrash } from '@/lib/server/trash';
import { trashFilterOf, trashQuery } from '@/lib/shapes/trash';
import { addressedPage, CONNECTION_PAGES, ConnectionNamedInAddress } from '@/app/connection-in-address';

export const metadata: Metadata = { title: 'Trash · QueueLens' };

// Read from Redis on every request: what is in the trash changes with every forget and restore.
export const dynamic = 'force-dynamic';

const TRASH_PAGE_SIZE = 50;

function askedPage(text: string | null): number {
  const page = Number(text ?? '1');
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

export default async function TrashPage({ searchParams }: { searchParams: Promise<PageSearchParams> }) {
  const search = await searchParams;
  const { address, elsewhere } = await addressedPage(search, CONNECTION_PAGES.trash);
  if (elsewhere !== null) return elsewhere;
  const lacks = await absentCapability('trash');
  if (lacks !== null) return <LayoutLacks title="Trash" sentence={lacks} />;
  const settings = trashSettingsFromEnv();
  const params = singleSearchParams(search);
  const asked = askedPage(params.get('page'));
  const filter = trashFilterOf(params);
  const read = await readTrash((asked - 1) * TRASH_PAGE_SIZE, TRASH_PAGE_SIZE, filter);
  return (
    <div className="space-y-4">
      <ConnectionNamedInAddress address={address} />
      <h1 className="text-2xl font-semibold tracking-tight">Trash</h1>
      {settings.keepSeconds === 0 ? (
        <Note title="The trash is off">
          QUEUELENS_TRASH_SECONDS, QUEUELENS_TRASH_MAX or QUEUELENS_TRASH_MAX_BYTES is 0: a forget or remove deletes its jobs for good, as the driver does, and
          nothing is kept here to restore.
        </Note>
      ) : (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Forgotten and removed jobs are kept here whole for {describeKeep(settings.keepSeconds)} (QUEUELENS_TRASH_SECONDS), at most{' '}
          {settings.maxEntries.toLocaleString('en')} jobs (QUEUELENS_TRASH_MAX) and {formatBytes(settings.maxBytes)} of Redis memory (QUEUELENS_TRASH_MAX_BYTES)
          for each queue prefix; beyond either the oldest go first.{read.ok ? ` They take ${formatBytes(read.data.bytes)} now.` : ''} Restore puts a job back
          where its driver keeps it, unless its id has been taken meanwhile.
        </p>
      )}
      {read.ok ? (
        <>
          {/* Keyed by the filter: its fields are uncontrolled, and must show the address's filter after Clear or Back. */}
          <TrashFilterForm key={trashQuery(filter, 1)} filter={filter} />
          <TrashList
            rows={read.data.rows}
            total={read.data.total}
            window={pageWindow(read.data.total, asked, TRASH_PAGE_SIZE)}
            now={read.data.now}
            filter={filter}
          />
        </>
      ) : (
        <Note title="The trash could not be read" role="alert">
          {read.error}
        </Note>
      )}
    </div>
  );
}

function describeKeep(seconds: number): string {
  if (seconds % 86_400 === 0) return `${seconds / 86_400} day${seconds === 86_400 ? '' : 's'}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} hour${seconds === 3600 ? '' : 's'}`;
  return `${seconds.toLocaleString('en')} seconds`;
}
