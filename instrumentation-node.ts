import { subscribe } from 'node:diagnostics_channel';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { readAccessSettings, startupRefusal, type AccessSettings } from '@/lib/auth/access-settings';
import { CLIENT_ADDRESS_HEADER, clientAddress } from '@/lib/auth/client-address';
import { SessionStore, shareSessionStore, sharedSessionStore } from '@/lib/auth/session-store';
import { describeMark } from '@/components/queues/describe-mark';
import { loadConnections } from '@/lib/dashboard/connections';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { largeReadLimitsFromEnv } from '@/lib/dashboard/large-reads';
import { publicUrlFromEnv } from '@/lib/dashboard/notices';
import { warmOverviewHistories } from '@/lib/dashboard/overview-history';
import { sampleMsFromEnv, startSampling, type Sampling } from '@/lib/dashboard/sampling';
import { logEvent } from '@/lib/log-event';
import { createClient, describeServer } from '@/lib/redis/client';
import { settingsFromUrl, type RedisSettings } from '@/lib/redis/config';
import { guardApi, type ApiGate } from '@/lib/serving/api-gate';
import { ARRIVAL_HEADER } from '@/lib/serving/arrival';
import { BurstAdmission } from '@/lib/serving/burst-admission';
import { GracefulDrain } from '@/lib/serving/graceful-drain';
import { pageActionsReader } from '@/lib/serving/page-actions';
import { guardRequest, type RequestGate } from '@/lib/serving/request-gate';

// A server that would be unsafe to expose (no secret; a short one, or no
// allowed origins, on an address other machines can reach) or that has a
// broken connections file, session store setting or large-read limit stops
// here with the reason, instead of answering requests. HOSTNAME is the
// address the standalone server binds (`queuelens serve` sets it).
let problem: string | null;
let access: AccessSettings | undefined;
let sessionRedis: RedisSettings | undefined;
try {
  access = readAccessSettings();
  problem = startupRefusal(access, process.env.HOSTNAME);
  // The sessions live in one Redis that every instance of this dashboard shares: QUEUELENS_SESSION_REDIS_URL, else the first connection's.
  const url = process.env.QUEUELENS_SESSION_REDIS_URL;
  sessionRedis = url ? settingsFromUrl(url) : loadConnections()[0]!.settings;
  largeReadLimitsFromEnv();
} catch (error) {
  problem = (error as Error).message;
}
if (problem !== null || access === undefined || sessionRedis === undefined) {
  logEvent('error', `QueueLens cannot start: ${problem}`);
  process.exit(1);
}
const { trustedProxies } = access;
const apiGate: ApiGate = { settings: access, sessions: sharedSessionStore, log: logEvent };
// The server runs in the app's folder (the standalone server.js changes to it), its build in .next.
const requestGate: RequestGate = {
  settings: access,
  actionsOf: pageActionsReader(join(process.cwd(), '.next', 'server', 'server-reference-manifest.json'), { once: process.env.NODE_ENV === 'production' }),
};

// Once per process: kept on globalThis because `next dev` evaluates this
// module again on edits. lib/server modules cannot be imported here
// (`server-only` refuses instrumentation), so the loops and the session store
// open connections of their own and log through the same JSON lines.
const server = globalThis as typeof globalThis & { queuelensSampling?: Sampling; queuelensDrain?: GracefulDrain };

if (sharedSessionStore() === undefined) {
  shareSessionStore(
    new SessionStore(createClient(sessionRedis, { commandTimeoutMs: sessionRedis.timeout * 2500 }), dashboardPrefixFromEnv(), describeServer(sessionRedis)),
  );
}

if (server.queuelensDrain === undefined) {
  const drain = new GracefulDrain();
  server.queuelensDrain = drain;
  // Every request, before Next.js sees it: the client address the sign-in
  // budgets are kept by, from the socket (and X-Forwarded-For only through
  // trusted proxies), and the time it arrived (lib/serving/arrival.ts),
  // each replacing any header of that name a client sent.
  const admission = new BurstAdmission();
  const admitting = new WeakSet<Server>();
  subscribe('http.server.request.start', (message) => {
    const { request, response, socket, server: http } = message as { request: IncomingMessage; response: ServerResponse; socket: Socket; server: Server };
    // Next.js creates its server out of our reach; its request listener is
    // put behind every request's gate (lib/serving/request-gate.ts), the
    // API's (lib/serving/api-gate.ts: proxy.ts gates the pages) and the
    // burst admission on the first request, which Node publishes here just
    // before handing it to the listeners.
    if (!admitting.has(http)) {
      admitting.add(http);
      const listeners = http.listeners('request') as ((request: IncomingMessage, response: ServerResponse) => void)[];
      http.removeAllListeners('request');
      const app = (request: IncomingMessage, response: ServerResponse) => listeners.forEach((listener) => listener.call(http, request, response));
      http.on('request', (request: IncomingMessage, response: ServerResponse) =>
        guardRequest(request, response, requestGate, () =>
          guardApi(request, response, apiGate, () => admission.admit(request, response, () => app(request, response))),
        ),
      );
    }
    const forwarded = request.headers['x-forwarded-for'];
    request.headers[CLIENT_ADDRESS_HEADER] = clientAddress(socket.remoteAddress, Array.isArray(forwarded) ? forwarded.join(',') : forwarded, trustedProxies);
    request.headers[ARRIVAL_HEADER] = String(Date.now());
    drain.requestStarted(response);
  });
  subscribe('net.server.socket', () => drain.connectionArrived());
}

// Throughput history is sampled by the server itself, once per process, on
// every connection whose layout has it (the loops ask each layout).
if (server.queuelensSampling === undefined) {
  const sampled = loadConnections();
  const sampling = startSampling({
    connections: sampled,
    dashboardPrefix: dashboardPrefixFromEnv(),
    intervalMs: sampleMsFromEnv(),
    log: logEvent,
    // Alerts word a mark and link to its page as the overview does.
    alerts: { describe: describeMark, publicUrl: publicUrlFromEnv() },
  });
  server.queuelensSampling = sampling;
  // Not awaited: the server answers meanwhile, and an overview that comes
  // first reads the history itself, as it would without this.
  void warmOverviewHistories({ connections: sampled, dashboardPrefix: dashboardPrefixFromEnv(), log: logEvent });
  const drain = server.queuelensDrain;
  if (process.env.NEXT_MANUAL_SIG_HANDLE) {
    // `queuelens serve` leaves the signals to us (NEXT_MANUAL_SIG_HANDLE): the
    // requests already sent are answered, then the process exits as Next.js
    // would have, 128 + the signal's number.
    for (const [signal, code] of [
      ['SIGTERM', 143],
      ['SIGINT', 130],
    ] as const) {
      process.once(signal, () => {
        logEvent('info', `${signal}: answering the requests already sent, then stopping`);
        void Promise.all([drain.drain(), sampling.stop()]).finally(() => process.exit(code));
      });
    }
  } else {
    // Next.js finishes the requests in flight and exits; the loop stops taking turns first.
    process.once('SIGTERM', () => void sampling.stop());
  }
}
