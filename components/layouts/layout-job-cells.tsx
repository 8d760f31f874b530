import Link from 'next/link';
import { BeyondExactId } from '@/components/queues/job-link';
import { Absent } from '@/components/ui/table';
import { JobName } from '@/components/ui/job-name';
import { jobHref, jobOfQueueHref } from '@/lib/routes';
import type { SeenPlace } from '@/lib/shapes/job-location';

/** A job's id as a link to its page, in its queue; a long one (marko's UUIDs) wraps rather than widening a phone's table. */
export function QueueJobLink({ id, queue, near }: { id: string; queue: string; near?: SeenPlace }) {
  return (
    <Link
      href={jobOfQueueHref(id, queue, near)}
      className="font-mono text-blue-700 underline-offset-2 [overflow-wrap:anywhere] hover:underline dark:text-blue-400"
    >
      #{id}
    </Link>
  );
}

/**
 * A row's job id, as its layout's shape gives it: no link where the id
 * cannot be acted on (`idNote` says why), a link naming no queue where ids
 * name a job on the whole connection (StaticPHP), else one in its queue.
 */
export function JobIdCell({
  id,
  queue,
  idNote,
  ofConnection = false,
  near,
}: {
  id: string;
  queue: string;
  idNote?: string;
  ofConnection?: boolean;
  /** where the row is in its queue's list, for the job's page to look there first */
  near?: SeenPlace;
}) {
  if (idNote !== undefined) return <BeyondExactId id={id} />;
  if (!ofConnection) return <QueueJobLink id={id} queue={queue} near={near} />;
  return (
    <Link href={jobHref(id)} className="font-mono text-blue-700 underline-offset-2 [overflow-wrap:anywhere] hover:underline dark:text-blue-400">
      #{id}
    </Link>
  );
}

/** A job's class or name (text, never markup), and under it what is wrong with the row. */
export function JobNameAndNote({ name, note }: { name: string | null; note: string | null }) {
  return (
    <>
      {name === null ? (
        <Absent label="no class known" />
      ) : (
        <span className="font-mono text-xs">
          <JobName name={name} />
        </span>
      )}
      {note !== null && <p className="mt-0.5 text-xs text-amber-800 dark:text-amber-300">{note}</p>}
    </>
  );
}

/** A number a layout may lack (a priority, a TTR): the figure, or a dash saying why not. */
export function OptionalFigure({ value, unit = '', missing }: { value: number | null; unit?: string; missing: string }) {
  return value === null ? <Absent label={missing} /> : <>{`${value}${unit}`}</>;
}
