import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { deleteKeysUnder } from '@/lib/redis/scan-keys';
import { MissingPrerequisite, chromiumForTests } from '@/lib/test-prerequisites';
import { connectE2eQueue, e2eConnectionsFile, e2ePrefix } from './support';

/**
 * `npm run test:e2e`: a Chromium found or installed (lib/test-prerequisites.ts)
 * and named to playwright.config.ts, Playwright under a prefix chosen here, then whatever is
 * left under that prefix (and the main server's connections file) deleted
 * once Playwright has stopped the servers under test. The specs delete their own keys, but the servers' throughput
 * samplers write history under the run's prefix until they stop, which is
 * after any teardown Playwright runs.
 */
async function main(): Promise<number> {
  const prefix = e2ePrefix();
  process.env.PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH = chromiumForTests(chromium.executablePath());
  // Ctrl-C reaches Playwright too, which stops its servers and exits; the cleanup still runs after it.
  process.on('SIGINT', () => {});
  const playwright = spawn('npx', ['playwright', 'test', ...process.argv.slice(2)], { stdio: 'inherit' });
  const [code] = (await once(playwright, 'exit')) as [number | null];
  await rm(e2eConnectionsFile(), { force: true });
  const queue = await connectE2eQueue();
  try {
    await deleteKeysUnder(queue.redis, prefix);
  } finally {
    await queue.close();
  }
  return code ?? 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof MissingPrerequisite ? error.message : error);
    process.exit(1);
  },
);
