import { readAccessSettings, startupRefusal } from '@/lib/auth/access-settings';
import { loadConnections } from '@/lib/dashboard/connections';

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
  console.error(JSON.stringify({ time: new Date().toISOString(), level: 'error', message: `QueueLens cannot start: ${problem}` }));
  process.exit(1);
}
