import Link from 'next/link';
import type { ReactNode } from 'react';
import { glossaryHref, glossaryTermHref } from '@/lib/routes';

/** A page's help text pointing at the glossary, or at one word of it (`term`, a GlossaryTerm id). */
export function GlossaryLink({ term, children }: { term?: string; children: ReactNode }) {
  return (
    <Link href={term === undefined ? glossaryHref : glossaryTermHref(term)} className="text-blue-700 underline underline-offset-2 dark:text-blue-400">
      {children}
    </Link>
  );
}
