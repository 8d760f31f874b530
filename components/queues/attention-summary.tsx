import Link from 'next/link';
import { GlossaryLink } from '@/components/glossary/glossary-link';
import { Callout } from '@/components/ui/banner';
import { formatCount } from '@/components/ui/format-count';
import type { OverviewAttention } from '@/lib/queries/overview';
import { describeMark, describeQueuesMarked } from './describe-mark';

/**
 * The queues that need attention over every queue of the connection, above
 * everything else on the overview: the first few named, each mark a link to
 * the page that deals with it, the rest counted (the table lists them all
 * first); nothing while none does.
 */
export function AttentionSummary({ attention, now }: { attention: OverviewAttention; now: number }) {
  if (attention.marked === 0) return null;
  const unnamed = attention.marked - attention.named.length;
  return (
    <Callout title={describeQueuesMarked(attention.marked)} tone="error" role="note">
      <ul className="space-y-0.5">
        {attention.named.map((row) => (
          <li key={row.queue}>
            <span className="font-mono">{row.queue}</span>:{' '}
            {row.marks.map((mark, index) => {
              const view = describeMark(row.queue, mark, now);
              return (
                <span key={mark.kind}>
                  <Link prefetch={false} href={view.href} className="underline underline-offset-2">
                    {view.title.toLowerCase()}
                  </Link>
                  {index < row.marks.length - 1 && ', '}
                </span>
              );
            })}
          </li>
        ))}
      </ul>
      {unnamed > 0 && <p className="mt-1 text-sm">And {formatCount(unnamed)} more: the table lists every queue that needs attention first.</p>}
      <p className="mt-1 text-sm">
        <GlossaryLink term="no-worker">What the marks mean</GlossaryLink>
      </p>
    </Callout>
  );
}
