'use client';

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { switchConnection } from '@/app/actions';
import { jobElsewhereQuery } from '@/lib/queries/layout-pages';
import { namesOneJobAnywhere, type JobElsewhereHolder } from '@/lib/shapes/job-elsewhere';

/**
 * The other connections holding a job `id`: one button per job, which
 * switches this browser to its connection and opens the job there (a whole
 * load, as the header's switcher does, so nothing on screen mixes two
 * connections). `onFailed` hears why a switch was refused.
 */
export function OtherConnections({ id, holders, onFailed }: { id: string; holders: JobElsewhereHolder[]; onFailed: (why: string) => void }) {
  const [opening, setOpening] = useState(false);
  const open = async (connection: string, href: string) => {
    setOpening(true);
    const switched = await switchConnection(connection).catch(() => ({ ok: false as const, error: 'Cannot reach the QueueLens server.' }));
    if (switched.ok) {
      window.location.assign(href);
      return;
    }
    setOpening(false);
    onFailed(switched.error);
  };
  return (
    <>
      <p>{holders.length === 1 ? 'Another connection holds a job with this id:' : `${holders.length} other connections hold a job with this id:`}</p>
      <ul aria-label={`Other connections holding a job ${id}`} className="mt-1 space-y-0.5">
        {holders.flatMap(({ connection, label, jobs }) =>
          jobs.map(({ queue, href }) => (
            <li key={`${connection} ${href}`}>
              <button
                type="button"
                disabled={opening}
                onClick={() => void open(connection, href)}
                className="text-left text-blue-700 underline-offset-2 hover:underline disabled:opacity-60 dark:text-blue-400 [overflow-wrap:anywhere]"
              >
                Open on {label}
                {queue !== null && <span className="font-mono"> · {queue}</span>}
              </button>
            </li>
          )),
        )}
      </ul>
    </>
  );
}

/** Under a job page that found no job `id`: the other connections holding one, once asked; nothing while none does (or for a whole number, which each connection counts on its own). */
export function JobElsewhereOffer({ id }: { id: string }) {
  const asked = namesOneJobAnywhere(id);
  const answer = useQuery({ ...jobElsewhereQuery(id), enabled: asked });
  const [refused, setRefused] = useState<string | null>(null);
  const holders = answer.data?.ok ? answer.data.data.holders : [];
  if (!asked || holders.length === 0) return null;
  return (
    <div className="mt-4 text-sm">
      <OtherConnections id={id} holders={holders} onFailed={setRefused} />
      {refused !== null && (
        <p role="alert" className="mt-1 text-red-700 dark:text-red-400">
          {refused}
        </p>
      )}
    </div>
  );
}
