import Link from 'next/link';
import { jobHref } from '@/lib/routes';

/** A job's id as a link to its page. */
export function JobLink({ id }: { id: number | string }) {
  return (
    <Link href={jobHref(id)} className="font-mono text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
      #{id}
    </Link>
  );
}

/** A job's name as stored, or a mark that its hash is gone (an entry left after the job finished). */
export function JobName({ name }: { name: string | null }) {
  if (name === null) return <span className="text-zinc-500 italic dark:text-zinc-400">gone</span>;
  return <span className="font-mono text-xs">{name}</span>;
}
