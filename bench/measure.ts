import type { Redis } from 'ioredis';
import { schedulerTimes } from './proc';

/** Median and 95th percentile of a set of durations, in ms. */
export interface Spread {
  medianMs: number;
  p95Ms: number;
}

/** Nearest-rank percentile of ascending `sorted`. */
function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? NaN;
}

export function spreadOf(samples: readonly number[]): Spread {
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  const medianMs = sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { medianMs, p95Ms: percentile(sorted, 0.95) };
}

/** Milliseconds `run` takes. */
export async function durationOf(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** `run` `count` times, one after another; the durations in ms. */
export async function sampleDurations(count: number, run: () => Promise<unknown>): Promise<number[]> {
  const samples: number[] = [];
  for (let n = 0; n < count; n++) samples.push(await durationOf(run));
  return samples;
}

/** The benchmark's hold on its own redis-server: a connection for statistics and the server's pid. */
export interface RedisProbe {
  admin: Redis;
  pid: number;
}

/** What Redis did during a stretch of work. */
export interface RedisWork {
  /** commands run, those inside scripts included (commandstats counts both) */
  calls: number;
  /** CPU time of Redis' main thread: commands, scripts and the socket I/O for them */
  cpuMicros: number;
  /** time Redis' main thread was ready to run but waited for a CPU: the machine's load */
  waitingMicros: number;
  /**
   * Per command from INFO commandstats, the costliest first. `micros` is the
   * wall time inside the command, so a script's includes the commands it
   * calls (counted again under their own names) and any moment the machine
   * paused Redis.
   */
  byCommand: { command: string; calls: number; micros: number }[];
}

type CommandStats = RedisWork['byCommand'];

/** `cmdstat_xadd:calls=3,usec=25,…` lines, per command. */
async function readCommandStats(admin: Redis): Promise<CommandStats> {
  return [...(await admin.info('commandstats')).matchAll(/^cmdstat_(\S+?):calls=(\d+),usec=(\d+)/gm)].map(([, command, calls, micros]) => ({
    command: command!,
    calls: Number(calls),
    micros: Number(micros),
  }));
}

/**
 * What `after` counts beyond `before`, the costliest first, without the
 * INFO that read `before` (INFO does not count itself, so that one is the
 * only read of ours in the difference; its time is taken as an average one).
 */
function commandStatsSince(before: CommandStats, after: CommandStats): CommandStats {
  const earlier = new Map(before.map((row) => [row.command, row]));
  return after
    .map(({ command, calls, micros }) => {
      let row = { command, calls: calls - (earlier.get(command)?.calls ?? 0), micros: micros - (earlier.get(command)?.micros ?? 0) };
      if (command === 'info' && row.calls > 0) row = { command, calls: row.calls - 1, micros: (row.micros * (row.calls - 1)) / row.calls };
      return row;
    })
    .filter((row) => row.calls > 0)
    .sort((a, b) => b.micros - a.micros);
}

/**
 * What Redis did while `body` ran, for every client: commandstats read
 * before and after (differences rather than a RESETSTAT, so that a
 * measurement can hold others), and the server's scheduler times. Only for
 * the benchmark's own server, with nothing else talking to it.
 */
export async function redisWorkDuring({ admin, pid }: RedisProbe, body: () => Promise<unknown>): Promise<RedisWork> {
  const statsBefore = await readCommandStats(admin);
  const before = schedulerTimes(pid);
  await body();
  const after = schedulerTimes(pid);
  const byCommand = commandStatsSince(statsBefore, await readCommandStats(admin));
  return {
    calls: byCommand.reduce((sum, row) => sum + row.calls, 0),
    cpuMicros: after.runningMicros - before.runningMicros,
    waitingMicros: after.waitingMicros - before.waitingMicros,
    byCommand,
  };
}

/** One SLOWLOG entry: the command with its arguments (Redis cuts long ones), how long it ran, and which client sent it. */
export interface SlowCommand {
  args: string[];
  micros: number;
  /** CLIENT SETNAME's name, '' for a client that set none */
  clientName: string;
  /** host:port; `?:0` for a command a script ran */
  clientAddress: string;
}

/** What SLOWLOG caught over a stretch of work, beside what Redis did meanwhile (each command's average, the wait for a CPU). */
export interface SlowPhase {
  entries: SlowCommand[];
  seconds: number;
  work: RedisWork;
}

/** SLOWLOG keeps this many entries; a phase that logs more loses its oldest, and says so. */
export const SLOWLOG_CAPACITY = 10_000;

/**
 * The commands slower than `thresholdMicros` while `body` ran: SLOWLOG is
 * reset before and read after, the newest SLOWLOG_CAPACITY of them.
 */
export async function slowCommandsDuring({ admin, pid }: RedisProbe, thresholdMicros: number, body: () => Promise<unknown>): Promise<SlowPhase> {
  await admin.config('SET', 'slowlog-log-slower-than', String(thresholdMicros));
  await admin.config('SET', 'slowlog-max-len', String(SLOWLOG_CAPACITY));
  await admin.slowlog('RESET');
  let milliseconds = 0;
  const work = await redisWorkDuring({ admin, pid }, async () => {
    milliseconds = await durationOf(body);
  });
  const logged = (await admin.slowlog('GET', SLOWLOG_CAPACITY)) as [number, number, number, string[], string?, string?][];
  const entries = logged.map(([, , micros, args, clientAddress = '', clientName = '']) => ({ args, micros, clientName, clientAddress }));
  return { entries, seconds: milliseconds / 1000, work };
}
