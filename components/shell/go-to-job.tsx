'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useRef, useState, type FormEvent } from 'react';
import { jobDetailQuery, type JobPage } from '@/lib/queries/job-detail';
import type { LiveSnapshot } from '@/lib/queries/live';
import { jobHref, parseJobId } from '@/lib/routes';

/** A job id as typed: spaces around it and a leading `#` are allowed. */
function parseTypedJobId(text: string): number | null {
  return parseJobId(text.trim().replace(/^#/, ''));
}

/** Why the job's page would show no job, or null when it has one to show. */
function whyNoJob(id: number, snapshot: LiveSnapshot<JobPage>): string | null {
  const page = snapshot.data;
  if (page === undefined) return `Cannot look up job ${id}: ${snapshot.error ?? 'no answer'}`;
  if (!('gone' in page)) return null;
  // Ids are handed out in order, so one above the highest so far was never pushed.
  return page.id > page.lastId
    ? `No job ${id}: no such job was ever pushed (the highest id so far is ${page.lastId}).`
    : `Job ${id} is gone: it finished or was forgotten.`;
}

/**
 * "Go to job": opens a job's page by its id, from any page, once a read of
 * the job (the page's own query, so the page opens with it) found it; a job
 * that is gone or never existed is said here instead of opening a page with
 * nothing on it.
 */
export function GoToJob() {
  const router = useRouter();
  const queryClient = useQueryClient();
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [checking, setChecking] = useState<number | null>(null);
  // Only the newest lookup answers: an older one that comes back later would tell about an id no longer typed.
  const lookup = useRef(0);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = parseTypedJobId(text);
    if (id === null) {
      setError(text.trim() === '' ? 'Type a job id first.' : 'A job id is a whole number above 0.');
      return;
    }
    const mine = ++lookup.current;
    setError(null);
    setChecking(id);
    let problem: string | null;
    try {
      problem = whyNoJob(id, await queryClient.fetchQuery(jobDetailQuery(id)));
    } catch (failure) {
      problem = `Cannot look up job ${id}: ${failure instanceof Error ? failure.message : 'no answer'}`;
    }
    if (mine !== lookup.current) return;
    setChecking(null);
    if (problem !== null) {
      setError(problem);
      return;
    }
    setText('');
    router.push(jobHref(id));
  };

  return (
    <form role="search" aria-label="Go to job" onSubmit={submit} noValidate className="relative flex flex-wrap items-center gap-2 text-sm">
      <label htmlFor={inputId} className="text-zinc-600 dark:text-zinc-400">
        Go to job
      </label>
      <input
        id={inputId}
        type="text"
        inputMode="numeric"
        autoComplete="off"
        placeholder="id"
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setError(null);
          setChecking(null);
          lookup.current++;
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
      <p
        id={errorId}
        aria-live="polite"
        className={
          error === null
            ? 'sr-only'
            : // Below the box: on its own line while the header wraps, over the page once it is one line.
              'w-full rounded-md border border-red-300 bg-white px-2 py-1 text-xs text-red-700 lg:absolute lg:top-full lg:left-0 lg:z-10 lg:mt-1 lg:w-auto lg:whitespace-nowrap lg:shadow-md dark:border-red-800 dark:bg-zinc-900 dark:text-red-400'
        }
      >
        {error ?? (checking === null ? null : `Looking for job ${checking}…`)}
      </p>
    </form>
  );
}
