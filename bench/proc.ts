import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process's resident memory from /proc/{pid}/status: now, and its peak (VmHWM, kept by the kernel, so no sampling can miss it). */
export function residentMemory(pid: number): { rssBytes: number; peakBytes: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kilobytes = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN) * 1024;
  return { rssBytes: kilobytes('VmRSS'), peakBytes: kilobytes('VmHWM') };
}

/** `root` and every process descending from it. */
function processTree(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The parent pid is the second field after the command name, which may itself hold spaces and parentheses.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch {
      // the process ended while we looked
    }
  }
  const tree = [root];
  for (let index = 0; index < tree.length; index++) tree.push(...(children.get(tree[index]!) ?? []));
  return tree;
}

/** Socket inodes listening on `port` (IPv4 or IPv6), from /proc/net/tcp*. */
function listeningInodes(port: number): Set<string> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const columns = line.trim().split(/\s+/);
      // columns: sl, local address:port, remote, state (0A is LISTEN), …, inode at index 9
      if (columns[1]?.endsWith(`:${hexPort}`) && columns[3] === '0A' && columns[9]) inodes.add(columns[9]);
    }
  }
  return inodes;
}

/**
 * The pid, among `root` and its descendants, that holds the socket listening
 * on `port`: the process that serves, whichever of a launcher's processes
 * that is. Throws when none does.
 */
export function servingPid(root: number, port: number): number {
  const inodes = listeningInodes(port);
  for (const pid of processTree(root)) {
    let descriptors: string[];
    try {
      descriptors = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const descriptor of descriptors) {
      try {
        const target = readlinkSync(`/proc/${pid}/fd/${descriptor}`);
        if (inodes.has(/^socket:\[(\d+)\]$/.exec(target)?.[1] ?? '')) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  throw new Error(`No process under ${root} listens on port ${port}`);
}

/**
 * A thread's time on a CPU and waiting for one (runnable, but another
 * process had the core), from /proc/{pid}/schedstat, in µs. For a
 * redis-server, whose main thread has the server's pid, the second is how
 * long the machine's load kept Redis from running.
 */
export function schedulerTimes(pid: number): { runningMicros: number; waitingMicros: number } {
  const [running = NaN, waiting = NaN] = readFileSync(`/proc/${pid}/schedstat`, 'utf8').trim().split(/\s+/).map(Number);
  return { runningMicros: running / 1000, waitingMicros: waiting / 1000 };
}
