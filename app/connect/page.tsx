import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ConnectPanel } from '@/components/connect/connect-panel';
import { Note } from '@/components/ui/note';
import { changeRefusal, authenticate } from '@/lib/server/access';
import { chooseConnection } from '@/lib/server/queue';
import { connectHref } from '@/lib/routes';

export const metadata: Metadata = { title: 'Connect · QueueLens' };

// Who may scan, and which connection's Redis, is decided per request.
export const dynamic = 'force-dynamic';

/** Finds the queues in the current connection's Redis and gives the connections-file entry for each: an operator's page. */
export default async function ConnectPage() {
  const current = await authenticate();
  if (!current.ok) redirect(`/login?next=${encodeURIComponent(connectHref)}`);
  const choice = await chooseConnection();
  const refusal = choice.ok ? changeRefusal(current.access, choice.connection) : choice.error;
  return (
    <div className="space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold">Connect</h1>
        <p className="max-w-3xl text-sm text-zinc-600 dark:text-zinc-400">
          Find the queues in this Redis: each StaticPHP or marko prefix and each yii2 channel is recognised by the names and types of its keys, in bounded SCAN
          steps (never KEYS), and comes with the entry that adds it to the connections file. The same scan runs from a shell as{' '}
          <code className="font-mono">queuelens detect</code>.
        </p>
      </div>
      {refusal !== null || !choice.ok ? (
        <Note title="Scanning is for operators">{`${refusal} A scan walks every key of the database and shows other applications' key names.`}</Note>
      ) : (
        <ConnectPanel connectionLabel={choice.connection.label} />
      )}
    </div>
  );
}
