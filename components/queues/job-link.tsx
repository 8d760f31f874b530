import Link from 'next/link';
import { beyondExactIdNote, type JobIdAsRead } from '@/lib/shapes/job-ids';
import { jobHref } from '@/lib/routes';

/**
 * A job's id as a link to its page; an id past 2^53, read as its digits,
 * gets no link (the page would open the job its rounded number names) but
 * the note saying what to use instead.
 */
export function JobLink({ id }: { id: JobIdAsRead }) {
  if (typeof id === 'string') return <BeyondExactId id={id} />;
  return (
    <Link prefetch={false} href={jobHref(id)} className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
      #{id}
    </Link>
  );
}

/** A job's name as stored, or a mark that its hash is gone (an entry left after the job finished). */
export function JobName({ name }: { name: string | null }) {
  if (name === null) return <span className="text-zinc-500 italic dark:text-zinc-400">gone</span>;
  return <span className="font-mono text-xs">{name}</span>;
}

/** A job id QueueLens cannot act on, shown digit for digit, with the reason and what to use. */
export function BeyondExactId({ id }: { id: string }) {
  return (
    <span className="font-mono break-all">
      #{id}
      <span className="block font-sans text-xs break-normal text-amber-800 dark:text-amber-300">{beyondExactIdNote(id)}</span>
    </span>
  );
}
