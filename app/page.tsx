import { NoQueues } from '@/components/queues/no-queues';
import { QueuesTable } from '@/components/queues/queues-table';
import { Banner } from '@/components/ui/banner';
import { Stat } from '@/components/ui/stat';
import { readQueue } from '@/lib/server/queue';

// Counts are read from Redis on every request; a cached page would show a stale queue.
export const dynamic = 'force-dynamic';

export default async function OverviewPage() {
  const result = await readQueue(async (queue) => {
    const [rows, failed] = await Promise.all([queue.stats(), queue.failedCount()]);
    return { rows, failed };
  });

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-semibold tracking-tight">Queues</h1>
      {result.ok ? (
        <>
          <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
            <Stat label="Failed jobs" value={result.data.failed} />
          </div>
          {result.data.rows.length > 0 ? <QueuesTable rows={result.data.rows} /> : <NoQueues />}
        </>
      ) : (
        <Banner title="Cannot read the queues">{result.error}</Banner>
      )}
    </div>
  );
}
