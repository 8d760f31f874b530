import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll } from 'vitest';
import { SERVER_COMMANDS, requireCommands } from '../test-prerequisites';

const run = promisify(execFile);

/**
 * Loopback ports for private servers: the shared Redis on 6379 is not ours
 * to reconfigure, and a cluster, a sentinel or TLS each need a server of
 * their own. A cluster node also listens on its port + 10000 (the bus).
 */
const PORTS = { first: 7100, last: 7199 } as const;
const CLUSTER_BUS_OFFSET = 10_000;

export interface StartedServer {
  port: number;
  /** its log file, for a failing test to read */
  log: string;
  /** kills it (SIGKILL: nothing to save) and resolves once it has exited */
  kill(): Promise<void>;
}

export interface TlsFiles {
  /** the CA that signed the server's certificate */
  ca: string;
  /** a CA that signed nothing here, for the refusal */
  otherCa: string;
  cert: string;
  key: string;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Private redis-server processes for one test file, on loopback ports
 * 7100–7199 under a temp dir, never persisting anything. Call at the top of
 * the file: every server it started is killed and the dir removed in
 * afterAll, whether the tests passed or not. A missing redis-server,
 * redis-cli or openssl is installed first where the run may, and otherwise
 * fails the file with a line saying what to install.
 */
export function privateServers() {
  const dir = mkdtempSync(join(tmpdir(), 'queuelens-servers-'));
  const children: ChildProcess[] = [];
  const taken = new Set<number>();

  const kill = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });

  // Installs them when the run may (root with apt), or stops with what to install; apt takes longer than a hook's usual 30 s.
  beforeAll(() => requireCommands(SERVER_COMMANDS), 300_000);

  afterAll(async () => {
    await Promise.all(children.map(kill));
    rmSync(dir, { recursive: true, force: true });
  });

  /** A free port of the range (and its bus port, for a cluster node), not handed out before. */
  async function freePort({ withBus = false } = {}): Promise<number> {
    for (let port = PORTS.first; port <= PORTS.last; port++) {
      if (taken.has(port) || !(await canListen(port))) continue;
      if (withBus && !(await canListen(port + CLUSTER_BUS_OFFSET))) continue;
      taken.add(port);
      return port;
    }
    throw new Error(`No free loopback port in ${PORTS.first}–${PORTS.last}`);
  }

  /**
   * Starts `redis-server` with `args` (a config file first, for a sentinel)
   * and resolves once `port` accepts connections; rejects with the server's
   * own output when it exits or does not listen within 10 s.
   */
  async function startProcess(port: number, args: string[]): Promise<StartedServer> {
    const log = join(dir, `redis-${port}.log`);
    const child = spawn('redis-server', [...args, '--logfile', log], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    let failure: Error | undefined;
    child.once('error', (error) => (failure = error));
    child.once('exit', (code, signal) => (failure ??= new Error(`redis-server on ${port} exited (${code ?? signal}): ${output}`)));
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(50)) {
      if (failure) throw failure;
      if (await accepts(port)) return { port, log, kill: () => kill(child) };
    }
    throw new Error(`redis-server on ${port} did not listen within 10 s: ${output}`);
  }

  const noDisk = ['--save', '', '--appendonly', 'no', '--dir', dir];

  /** How a server listens on `port`: in clear, or only TLS with `tls`' certificate, not asking clients for one. */
  const listening = (port: number, tls?: TlsFiles): [string, string][] =>
    tls
      ? [
          ['port', '0'],
          ['tls-port', String(port)],
          ['tls-cert-file', tls.cert],
          ['tls-key-file', tls.key],
          ['tls-ca-cert-file', tls.ca],
          ['tls-auth-clients', 'no'],
        ]
      : [['port', String(port)]];
  const asArguments = (options: [string, string][]) => options.flatMap(([name, value]) => [`--${name}`, value]);
  /** redis-cli's options to reach a server of `tls` (with its CA) or in clear. */
  const cliTo = (port: number, tls?: TlsFiles) => [...(tls ? ['--tls', '--cacert', tls.ca] : []), '-p', String(port)];

  /** One server; `extra` adds options (cluster mode). */
  async function redis({ tls, extra = [], port }: { tls?: TlsFiles; extra?: string[]; port?: number } = {}): Promise<StartedServer> {
    const listenOn = port ?? (await freePort());
    return startProcess(listenOn, [...asArguments(listening(listenOn, tls)), '--bind', '127.0.0.1', ...noDisk, ...extra]);
  }

  /**
   * A cluster of `masters` masters and no replicas, its slots spread by
   * `redis-cli --cluster create` (first node lowest), once every node reports
   * cluster_state:ok. With `tls`, clients and the nodes' bus speak only TLS.
   */
  async function cluster(masters = 3, { tls }: { tls?: TlsFiles } = {}): Promise<StartedServer[]> {
    const nodes: StartedServer[] = [];
    for (let i = 0; i < masters; i++) {
      const port = await freePort({ withBus: true });
      const clusterMode = ['--cluster-enabled', 'yes', '--cluster-config-file', join(dir, `nodes-${port}.conf`), '--cluster-node-timeout', '5000'];
      nodes.push(await redis({ tls, port, extra: [...clusterMode, ...(tls ? ['--tls-cluster', 'yes', '--tls-replication', 'yes'] : [])] }));
    }
    const first = nodes[0]!.port;
    await run('redis-cli', [...cliTo(first, tls), '--cluster', 'create', ...nodes.map(({ port }) => `127.0.0.1:${port}`), '--cluster-yes']);
    for (const { port } of nodes) {
      for (let tries = 0; ; tries++) {
        const { stdout } = await run('redis-cli', [...cliTo(port, tls), 'cluster', 'info']);
        if (stdout.includes('cluster_state:ok')) break;
        if (tries > 200) throw new Error(`The cluster node on ${port} never reported cluster_state:ok:\n${stdout}`);
        await sleep(50);
      }
    }
    return nodes;
  }

  /**
   * A sentinel monitoring the master on `masterPort` as `name`; its config
   * file must be writable, so it lives in the temp dir. With `tls`, it speaks
   * only TLS, to clients and to the master.
   */
  async function sentinel(masterPort: number, name: string, { tls }: { tls?: TlsFiles } = {}): Promise<StartedServer> {
    const port = await freePort();
    const config = join(dir, `sentinel-${port}.conf`);
    const lines = [
      ...listening(port, tls).map((option) => option.join(' ')),
      ...(tls ? ['tls-replication yes'] : []),
      'bind 127.0.0.1',
      `dir ${dir}`,
      `sentinel monitor ${name} 127.0.0.1 ${masterPort} 1`,
      `sentinel down-after-milliseconds ${name} 5000`,
    ];
    writeFileSync(config, `${lines.join('\n')}\n`);
    return startProcess(port, [config, '--sentinel']);
  }

  /** A throwaway CA, a certificate it signs for 127.0.0.1, and a second CA that signed nothing. */
  async function tlsFiles(): Promise<TlsFiles> {
    const path = (name: string) => join(dir, name);
    const newCa = (name: string) =>
      run('openssl', [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        `/CN=${name}`,
        '-keyout',
        path(`${name}.key`),
        '-out',
        path(`${name}.pem`),
      ]);
    await newCa('queuelens-test-ca');
    await newCa('queuelens-other-ca');
    await run('openssl', ['req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=127.0.0.1', '-keyout', path('server.key'), '-out', path('server.csr')]);
    writeFileSync(path('server.ext'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      path('server.csr'),
      '-CA',
      path('queuelens-test-ca.pem'),
      '-CAkey',
      path('queuelens-test-ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      path('server.ext'),
      '-out',
      path('server.pem'),
    ]);
    return { ca: path('queuelens-test-ca.pem'), otherCa: path('queuelens-other-ca.pem'), cert: path('server.pem'), key: path('server.key') };
  }

  return { freePort, redis, cluster, sentinel, tlsFiles };
}
