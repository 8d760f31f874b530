import type { Runtime } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

/** Where the CPU of a stretch of work went, by function (self time). */
export interface ProfileSummary {
  /** wall time of the work */
  totalMs: number;
  /** the share spent waiting (for Redis, mostly) rather than running JavaScript */
  idleMs: number;
  top: { name: string; selfMs: number }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

// No line numbers: tsx compiles our files, so V8's lines are not the source's.
function describeFrame({ functionName, url }: Runtime.CallFrame): string {
  if (!url) return functionName || '(anonymous)';
  const file = url.replace(/^file:\/\//, '').replace(root, '').replace(/^.*node_modules\//, '');
  return `${functionName || '(anonymous)'} (${file})`;
}

/** The inspector's own frame: the profiler starting and stopping, not the work. */
const PROFILER_FRAME = 'dispatch';

/**
 * Runs `body` under the V8 sampling profiler in this process and sums each
 * function's self time: the client side of a reader's cost (INFO
 * commandstats gives the Redis side).
 */
export async function profileOf(body: () => Promise<unknown>, topCount = 10): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    const started = performance.now();
    await body();
    const totalMs = performance.now() - started;
    const { profile } = await session.post('Profiler.stop');
    const frameOf = new Map(profile.nodes.map((node) => [node.id, describeFrame(node.callFrame)]));
    const selfMs = new Map<string, number>();
    const samples = profile.samples ?? [];
    const deltas = profile.timeDeltas ?? [];
    for (const [index, id] of samples.entries()) {
      const name = frameOf.get(id) ?? '(unknown)';
      selfMs.set(name, (selfMs.get(name) ?? 0) + (deltas[index] ?? 0) / 1000);
    }
    const idleMs = selfMs.get('(idle)') ?? 0;
    const top = [...selfMs].filter(([name]) => name !== '(idle)' && name !== PROFILER_FRAME).sort((a, b) => b[1] - a[1]).slice(0, topCount).map(([name, ms]) => ({ name, selfMs: ms }));
    return { totalMs, idleMs, top };
  } finally {
    session.disconnect();
  }
}
