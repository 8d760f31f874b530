import Link from 'next/link';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import { Callout } from '@/components/ui/banner';
import type { OverviewQueue } from '@/lib/queries/overview';
import { describeMark, describeQueuesMarked } from './describe-mark';

/** The queues that need attention, above everything else on the overview, each mark a link to the page that deals with it; nothing while none does. */
export function AttentionSummary({ queues, now }: { queues: readonly OverviewQueue[]; now: number }) {
  const marked = queues.filter((row) => row.marks.length > 0);
  if (marked.length === 0) return null;
  return (
    <Callout title={describeQueuesMarked(marked.length)} tone="error" role="note">
      <ul className="space-y-0.5">
        {marked.map((row) => (
          <li key={row.queue}>
            <span className="font-mono">{row.queue}</span>:{' '}
            {row.marks.map((mark, index) => {
              const view = describeMark(row.queue, mark, now);
              return (
                <span key={mark.kind}>
                  <Link href={view.href} className="underline underline-offset-2">
                    {view.title.toLowerCase()}
                  </Link>
                  {index < row.marks.length - 1 && ', '}
                </span>
              );
            })}
          </li>
        ))}
      </ul>
      <p className="mt-1 text-sm">
        <GlossaryLink term="no-worker">What the marks mean</GlossaryLink>
      </p>
    </Callout>
  );
}
