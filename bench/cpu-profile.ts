import { readFileSync } from 'node:fs';
import type { Profiler, Runtime } from 'node:inspector';
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';

/** Where the CPU of a stretch of work went (self time), by function and by package. */
export interface ProfileSummary {
  /** the time the samples cover */
  sampledMs: number;
  /** of which nothing ran: waiting for Redis or for the next request */
  idleMs: number;
  topFunctions: { name: string; selfMs: number }[];
  byPackage: { name: string; selfMs: number }[];
}

const root = fileURLToPath(new URL('..', import.meta.url));

/** The inspector's own frame in a profile taken in-process: the profiler starting and stopping, not the work. */
const PROFILER_FRAME = 'dispatch';

function fileOf(url: string): string {
  return url.replace(/^file:\/\//, '').replace(root, '');
}

// No line numbers: tsx compiles our files and Next minifies its bundle, so V8's lines are not the source's.
function describeFrame({ functionName, url }: Runtime.CallFrame): string {
  if (!url) return functionName || '(anonymous)';
  return `${functionName || '(anonymous)'} (${fileOf(url).replace(/^.*node_modules\//, '')})`;
}

/** The package, or part of the project, a frame's code comes from. */
function packageOf({ functionName, url }: Runtime.CallFrame): string {
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 and native code';
  // Node's share split where a server's choices show: promise hooks are what
  // AsyncLocalStorage costs (Next keeps its request context in one), zlib is
  // compressing answers.
  if (url.startsWith('node:')) {
    if (url.includes('async_hooks')) return 'Node: async_hooks (AsyncLocalStorage)';
    if (url.includes('zlib')) return 'Node: zlib (compressed answers)';
    return 'Node: the rest (sockets, streams, timers)';
  }
  const file = fileOf(url);
  const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file);
  if (inModules) return inModules[1]!;
  if (file.startsWith('.next/')) return 'the build (.next: our code and what Next bundles)';
  return file.split('/')[0] ?? file;
}

/**
 * Sums each function's and each package's self time over the samples taken
 * between `fromMicros` and `toMicros` (the monotonic clock V8 stamps
 * profiles with, which process.hrtime reads too, in any process).
 */
export function summarizeProfile(profile: Profiler.Profile, { fromMicros = -Infinity, toMicros = Infinity } = {}, topCount = 10): ProfileSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const byFunction = new Map<string, number>();
  const byPackage = new Map<string, number>();
  const add = (totals: Map<string, number>, name: string, ms: number) => totals.set(name, (totals.get(name) ?? 0) + ms);
  const deltas = profile.timeDeltas ?? [];
  let at = profile.startTime;
  let sampledMs = 0;
  for (const [index, id] of (profile.samples ?? []).entries()) {
    const delta = deltas[index] ?? 0;
    at += delta;
    const frame = frames.get(id);
    if (at < fromMicros || at > toMicros || !frame || frame.functionName === PROFILER_FRAME) continue;
    sampledMs += delta / 1000;
    add(byFunction, describeFrame(frame), delta / 1000);
    add(byPackage, packageOf(frame), delta / 1000);
  }
  const idleMs = byFunction.get('(idle)') ?? 0;
  const ranked = (totals: Map<string, number>) =>
    [...totals]
      .filter(([name]) => name !== '(idle)')
      .sort((a, b) => b[1] - a[1])
      .slice(0, topCount)
      .map(([name, selfMs]) => ({ name, selfMs }));
  return { sampledMs, idleMs, topFunctions: ranked(byFunction), byPackage: ranked(byPackage) };
}

/** A profile `node --cpu-prof` wrote. */
export function readCpuProfile(path: string): Profiler.Profile {
  return JSON.parse(readFileSync(path, 'utf8')) as Profiler.Profile;
}

/**
 * Runs `body` under the V8 sampling profiler in this process: the client
 * side of a reader's cost (INFO commandstats gives the Redis side).
 */
export async function profileOf(body: () => Promise<unknown>, topCount = 10): Promise<ProfileSummary> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 200 });
    await session.post('Profiler.start');
    await body();
    const { profile } = await session.post('Profiler.stop');
    return summarizeProfile(profile, {}, topCount);
  } finally {
    session.disconnect();
  }
}
