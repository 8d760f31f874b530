import { defineConfig } from '@playwright/test';
import { APP_PORT, RESTARTABLE_APP_PORT, RESTARTABLE_REDIS_PORT, UNREACHABLE_APP_PORT, UNREACHABLE_REDIS_URL, assertLocalRedis, e2eDashboardPrefix, e2ePrefix } from './e2e/support';

assertLocalRedis();
const prefix = e2ePrefix();
// Every server keeps QueueLens's own keys (the audit log) under the run's prefix too.
const env = { QUEUE_PREFIX: prefix, QUEUELENS_PREFIX: e2eDashboardPrefix(), NEXT_TELEMETRY_DISABLED: '1' };

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    trace: 'retain-on-failure',
    browserName: 'chromium',
    // Debian's Chromium: the sandbox has no internet for `playwright install`.
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  // Started in order, so the second server finds the build the first one made.
  webServer: [
    {
      command: `npm run build && npm run start -- -H 127.0.0.1 -p ${APP_PORT}`,
      url: `http://127.0.0.1:${APP_PORT}`,
      env,
      reuseExistingServer: false,
      timeout: 180_000,
    },
    {
      command: `npm run start -- -H 127.0.0.1 -p ${UNREACHABLE_APP_PORT}`,
      url: `http://127.0.0.1:${UNREACHABLE_APP_PORT}`,
      env: { ...env, REDIS_URL: UNREACHABLE_REDIS_URL },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npm run start -- -H 127.0.0.1 -p ${RESTARTABLE_APP_PORT}`,
      url: `http://127.0.0.1:${RESTARTABLE_APP_PORT}`,
      env: { ...env, REDIS_URL: `redis://127.0.0.1:${RESTARTABLE_REDIS_PORT}` },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
