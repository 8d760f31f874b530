import Link from 'next/link';
import { Badge } from '@/components/ui/badge';
import type { QueueMark } from '@/lib/dashboard/marks';
import { describeMark } from './describe-mark';

/** What needs attention on one queue, one line per mark, each with a link to the page that deals with it. Nothing for a healthy queue. */
export function QueueMarks({ queue, marks, now }: { queue: string; marks: readonly QueueMark[]; now: number }) {
  if (marks.length === 0) return null;
  return (
    <ul aria-label={`What needs attention on ${queue}`} className="mt-1 space-y-1 text-xs">
      {marks.map((mark) => {
        const view = describeMark(queue, mark, now);
        return (
          <li key={mark.kind} className="flex flex-wrap items-baseline gap-x-1.5 gap-y-0.5 text-zinc-800 dark:text-zinc-200">
            <Badge tone="bad">{view.title}</Badge>
            <span>{view.detail}</span>
            <Link prefetch={false} href={view.href} className="whitespace-nowrap text-blue-700 underline underline-offset-2 dark:text-blue-400">
              {view.action}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
