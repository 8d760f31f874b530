'use client';

import { useRouter } from 'next/navigation';
import { useId, useState, type FormEvent } from 'react';
import { jobHref, parseJobId } from '@/lib/routes';

/** A job id as typed: spaces around it and a leading `#` are allowed. */
function parseTypedJobId(text: string): number | null {
  return parseJobId(text.trim().replace(/^#/, ''));
}

/** "Go to job": opens a job's page by its id, from any page. */
export function GoToJob() {
  const router = useRouter();
  const inputId = useId();
  const errorId = useId();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const id = parseTypedJobId(text);
    if (id === null) {
      setError(text.trim() === '' ? 'Type a job id first.' : 'A job id is a whole number above 0.');
      return;
    }
    setError(null);
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
        {error}
      </p>
    </form>
  );
}
