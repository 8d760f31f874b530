import { scrollableBox } from '@/components/ui/scroll-x';

const FIRST_PUSH = `npx queuelens push default demo.noop '{}'`;

/** What the overview shows before any job exists: how to push the first one. */
export function NoQueues() {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center dark:border-zinc-700 dark:bg-zinc-900">
      <p className="font-semibold">No jobs in any queue yet.</p>
      <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">Push a first job to see its queue here:</p>
      <pre
        {...scrollableBox('The command that pushes a first job')}
        className="mt-3 inline-block max-w-full overflow-x-auto rounded bg-zinc-900 px-3 py-2 text-left text-sm text-zinc-50 dark:bg-black"
      >
        <code>{FIRST_PUSH}</code>
      </pre>
    </div>
  );
}
