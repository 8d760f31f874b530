const FIRST_PUSH = `npx queuelens push default demo.noop '{}'`;

/** What the overview shows before any job exists: how to push the first one. */
export function NoQueues() {
  return (
    <div className="rounded-md border border-dashed border-zinc-300 bg-white px-6 py-8 text-center">
      <p className="font-semibold">No jobs in any queue yet.</p>
      <p className="mt-2 text-sm text-zinc-600">Push a first job to see its queue here:</p>
      <pre className="mt-3 inline-block rounded bg-zinc-900 px-3 py-2 text-left text-sm text-zinc-50">
        <code>{FIRST_PUSH}</code>
      </pre>
    </div>
  );
}
