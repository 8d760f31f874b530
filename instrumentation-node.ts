import { readAccessSettings, startupRefusal } from '@/lib/auth/access-settings';
import { loadConnections } from '@/lib/dashboard/connections';
import { dashboardPrefixFromEnv } from '@/lib/dashboard/keys';
import { warmOverviewHistories } from '@/lib/dashboard/overview-history';
import { sampleMsFromEnv, startSampling, type Sampling } from '@/lib/dashboard/sampling';
import { logEvent } from '@/lib/log-event';

// A server that would be unsafe to expose (no secret; a short one, or no
// allowed origins, on an address other machines can reach) or that has a
// broken connections file stops here with the reason, instead of answering
// requests. HOSTNAME is the address the standalone server binds
// (`queuelens serve` sets it).
let problem: string | null;
try {
  problem = startupRefusal(readAccessSettings(), process.env.HOSTNAME);
  loadConnections();
} catch (error) {
  problem = (error as Error).message;
}
if (problem !== null) {
  logEvent('error', `QueueLens cannot start: ${problem}`);
  process.exit(1);
}

// Throughput history is sampled by the server itself, once per process: kept
// on globalThis because `next dev` evaluates this module again on edits, and
// two loops would each take a sampler's turn. lib/server modules cannot be
// imported here (`server-only` refuses instrumentation), so the loop opens
// connections of its own and logs through the same JSON lines.
const server = globalThis as typeof globalThis & { queuelensSampling?: Sampling };
if (server.queuelensSampling === undefined) {
  const sampling = startSampling({
    connections: loadConnections(),
    dashboardPrefix: dashboardPrefixFromEnv(),
    intervalMs: sampleMsFromEnv(),
    log: logEvent,
  });
  server.queuelensSampling = sampling;
  // Not awaited: the server answers meanwhile, and an overview that comes
  // first reads the history itself, as it would without this.
  void warmOverviewHistories({ connections: loadConnections(), dashboardPrefix: dashboardPrefixFromEnv(), log: logEvent });
  // Next.js finishes the requests in flight and exits; the loop stops taking turns first.
  process.once('SIGTERM', () => void sampling.stop());
}
