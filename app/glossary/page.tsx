import type { Metadata } from 'next';
import { GLOSSARY } from '@/components/glossary/terms';

export const metadata: Metadata = { title: 'What the words mean · QueueLens' };

/** `/glossary`: the words the pages use for what jobs go through, each defined once. */
export default function GlossaryPage() {
  return (
    <div className="max-w-3xl space-y-6">
      <div className="space-y-2">
        <h1 className="text-2xl font-semibold tracking-tight">What the words mean</h1>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">The words the dashboard uses for what happens to a queue&apos;s jobs, each in one place.</p>
      </div>
      <dl className="space-y-4">
        {GLOSSARY.map(({ term, id, definition }) => (
          <div
            key={id}
            id={id}
            className="scroll-mt-4 rounded-md border border-zinc-200 bg-white px-4 py-3 target:border-blue-500 dark:border-zinc-800 dark:bg-zinc-900 dark:target:border-blue-400"
          >
            <dt className="font-semibold">{term}</dt>
            <dd className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">{definition}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
