'use client';

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { Route } from 'next';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { isJobIdAcrossQueues } from '@/lib/layouts/pages';
import { jobElsewhereQuery, jobSnapshotQuery } from '@/lib/queries/layout-pages';
import { OtherConnections } from '@/components/jobs/job-elsewhere';
import { jobHref, jobOfQueueHref, parseJobId, parseJobIdText } from '@/lib/routes';
import { namesOneJobAnywhere, type JobElsewhereHolder } from '@/lib/shapes/job-elsewhere';

/**
 * How the connection's layout numbers its jobs: by one counter across the
 * connection (StaticPHP's job hashes: whole numbers, one job per id in
 * every queue), or by queue or application (decimal ids counted per queue,
 * or an application's text ids).
 */
export type JobIds = 'numbered' | 'text';

/**
 * What a lookup found: the page to open, the queues to pick from, or why
 * there is none; `notHere` when this connection holds no job with the id
 * (another may: `lookElsewhere`).
 */
type Found = { open: Route } | { pick: { id: string; holders: string[] } } | { problem: string; notHere?: NotHere };

/** An id this connection holds no job with, and what to say of it beside the other connections that hold one. */
interface NotHere {
  id: string;
  /** said above them, where it is not the problem itself */
  here?: string;
}

/** Why no job of this connection answers to an id, and the other connections that hold one. */
interface Elsewhere {
  problem: string;
  id: string;
  holders: JobElsewhereHolder[];
}

function unanswered(id: string, error: string | null | undefined): Found {
  return { problem: `Cannot look up job ${id}: ${error ?? 'no answer'}` };
}

/**
 * A job by id alone, read with the job page's own query (so the page opens
 * with it): on a connection of several queues that each count their own ids
 * (yii2's channels), the one holding it, or the holders to pick from.
 */
async function findJob(queryClient: QueryClient, text: string, ids: JobIds): Promise<Found> {
  const id = ids === 'numbered' ? (parseJobId(text) === null ? null : text) : parseJobIdText(text);
  if (id === null) {
    // An application's id (marko's, Laravel's) typed on a connection that numbers its jobs may be another connection's.
    const textId = parseJobIdText(text);
    return {
      problem:
        ids === 'numbered'
          ? 'A job id is a whole number above 0.'
          : 'A job id is a whole number above 0, or the letters, digits and -_.: of an application’s id.',
      ...(textId !== null && { notHere: { id: textId, here: `No job ${textId} here: this connection numbers its jobs.` } }),
    };
  }
  const snapshot = await queryClient.fetchQuery(jobSnapshotQuery(id));
  const answer = snapshot.data;
  if (answer === undefined) return unanswered(id, snapshot.error);
  if (isJobIdAcrossQueues(answer)) {
    return answer.holders.length === 0
      ? { problem: `No job ${id} in any queue of this connection (looked in ${answer.searched.join(', ')}).`, notHere: { id } }
      : { pick: { id, holders: answer.holders } };
  }
  if (answer.status === 'gone') {
    const { lastId } = answer;
    // Ids are handed out in order, so one above the highest so far was never pushed.
    if (lastId !== undefined)
      return {
        problem:
          Number(id) > lastId
            ? `No job ${id}: no such job was ever pushed (the highest id so far is ${lastId}).`
            : `Job ${id} is gone: it finished or was forgotten.`,
        notHere: { id },
      };
    return { problem: `No job ${id}${answer.queue === '' ? '' : ` in ${answer.queue}`}: ${answer.statusText}.`, notHere: { id } };
  }
  // Numbered ids name one job on the whole connection: its address needs no queue.
  return { open: ids === 'numbered' ? jobHref(id) : jobOfQueueHref(id, answer.queue) };
}

/**
 * Where a job this connection does not hold is: the other connections
 * holding one, or the problem alone (naming those that could not say,
 * where the id is of this connection's form).
 */
async function lookElsewhere(queryClient: QueryClient, problem: string, { id, here }: NotHere): Promise<Elsewhere | { problem: string }> {
  const answer = await queryClient.fetchQuery(jobElsewhereQuery(id)).catch(() => null);
  if (answer === null || !answer.ok) return { problem };
  const { holders, unanswered: unasked } = answer.data;
  if (holders.length > 0) return { problem: here ?? problem, id, holders };
  // An id not of this connection's form is told as such: the connections that could not say are news only about one it could hold.
  return { problem: unasked.length === 0 || here !== undefined ? problem : `${problem} ${unasked.join(', ')} could not be asked.` };
}

/**
 * "Go to job": opens a job's page by its id, from any page, once a read of
 * the job found it; a job that is gone or never existed is said here
 * instead of opening a page with nothing on it, and an id that several of
 * the connection's queues hold (yii2 counts ids per channel) lists them to
 * pick from. An id this connection holds no job with is asked of the
 * others, and those that hold one are offered, each opening the job there.
 */
export function GoToJob({ ids }: { ids: JobIds }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState<string | null>(null);
  const [pick, setPick] = useState<{ id: string; holders: string[] } | null>(null);
  const [elsewhere, setElsewhere] = useState<Elsewhere | null>(null);
  // Only the newest lookup answers: an older one that comes back later would tell about an id no longer typed.
  const lookupCount = useRef(0);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = text.trim().replace(/^#/, '');
    if (typed === '') {
      setError('Type a job id first.');
      return;
    }
    const mine = ++lookupCount.current;
    setError(null);
    setPick(null);
    setElsewhere(null);
    setChecking(typed);
    let found: Found | Elsewhere;
    try {
      found = await findJob(queryClient, typed, ids);
      if ('notHere' in found && found.notHere !== undefined && namesOneJobAnywhere(found.notHere.id))
        found = await lookElsewhere(queryClient, found.problem, found.notHere);
    } catch (failure) {
      found = unanswered(typed, failure instanceof Error ? failure.message : undefined);
    }
    if (mine !== lookupCount.current) return;
    setChecking(null);
    if ('holders' in found) setElsewhere(found);
    else if ('problem' in found) setError(found.problem);
    else if ('pick' in found) setPick(found.pick);
    else {
      setText('');
      router.push(found.open);
    }
  };

  return (
    <form role="search" aria-label="Go to job" onSubmit={submit} noValidate className="relative flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={inputId} className="text-zinc-600 dark:text-zinc-400">
        Go to job
      </label>
      <input
        id={inputId}
        type="text"
        inputMode={ids === 'numbered' ? 'numeric' : 'text'}
        autoComplete="off"
        placeholder="id"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
          setPick(null);
          setElsewhere(null);
          setChecking(null);
          lookupCount.current++;
        }}
        aria-invalid={error !== null}
        aria-describedby={errorId}
        className="w-24 rounded-md border border-zinc-300 bg-white px-2 py-1 tabular-nums aria-invalid:border-red-500 dark:border-zinc-700 dark:bg-zinc-900"
      />
      <button
        type="submit"
        className="rounded-md border border-zinc-300 bg-zinc-100 px-3 py-1 font-medium hover:bg-zinc-200 dark:border-zinc-700 dark:bg-zinc-800 dark:hover:bg-zinc-700"
      >
        Go
      </button>
      {/* Always in the page, so the message is announced when it appears. */}
      <div
        id={errorId}
        aria-live="polite"
        className={
          error === null && pick === null && elsewhere === null
            ? 'sr-only'
            : // Below the box: on its own line while the header wraps, over the page once it is one line.
              `w-full rounded-md border bg-white px-2 py-1 text-xs lg:absolute lg:top-full lg:left-0 lg:z-10 lg:mt-1 lg:w-auto lg:whitespace-nowrap lg:shadow-md dark:bg-zinc-900 ${
                error === null
                  ? 'border-zinc-300 text-zinc-800 dark:border-zinc-700 dark:text-zinc-200'
                  : 'border-red-300 text-red-700 dark:border-red-800 dark:text-red-400'
              }`
        }
      >
        {error ??
          (pick !== null ? (
            <QueuesToPick {...pick} onPick={() => setPick(null)} />
          ) : elsewhere !== null ? (
            <>
              <p>{elsewhere.problem}</p>
              <OtherConnections
                id={elsewhere.id}
                holders={elsewhere.holders}
                onFailed={(why) => {
                  setElsewhere(null);
                  setError(why);
                }}
              />
            </>
          ) : checking === null ? null : (
            `Looking for job ${checking}…`
          ))}
      </div>
    </form>
  );
}

/** An id several queues hold: one link per queue to its job. */
function QueuesToPick({ id, holders, onPick }: { id: string; holders: string[]; onPick: () => void }) {
  return (
    <>
      <p>
        Job {id} is in {holders.length} queues, each counting its own ids:
      </p>
      <ul aria-label={`Queues holding a job ${id}`} className="mt-1 space-y-0.5">
        {holders.map((holder) => (
          <li key={holder}>
            <Link
              href={jobOfQueueHref(id, holder)}
              onClick={onPick}
              className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400 [overflow-wrap:anywhere]"
            >
              {holder}
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
