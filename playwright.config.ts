import { writeFileSync } from 'node:fs';
import { chromium, defineConfig } from '@playwright/test';
import { settingsFromEnv } from './lib/redis/config';
import { MissingPrerequisite, findChromium } from './lib/test-prerequisites';
import {
  APP_PORT,
  ARCHIVE_CONNECTION,
  E2E_ALERTS,
  OPERATOR_STATE,
  RESTARTABLE_APP_PORT,
  RESTARTABLE_REDIS_PORT,
  REDIS_DOWN_CONNECTIONS,
  UNREACHABLE_APP_PORT,
  UNREACHABLE_REDIS_URL,
  YII2_CONNECTIONS,
  YII2_PAIR_CONNECTION,
  MARKO_CONNECTION,
  LARAVEL_CONNECTION,
  assertLocalRedis,
  e2eConnectionsFile,
  e2eDashboardPrefix,
  e2ePrefix,
  e2eSecrets,
} from './e2e/support';

assertLocalRedis();
// npm run test:e2e has found or installed one already and named it in PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH; `npx playwright test` looks without installing.
const browser = findChromium(chromium.executablePath());
if (browser === null)
  throw new MissingPrerequisite(
    'No Chromium for the e2e tests: run them with npm run test:e2e, which installs one where it can, or set PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH',
  );
const prefix = e2ePrefix();
const secrets = e2eSecrets();
// The main server's connections: the run's queues (with alert thresholds for alerts.spec.ts' queues), a read-only "archive" under a prefix of its own, a redis-ng and a stock yii2 channel, two redis-ng channels in one connection, marko/queue-redis queues, Laravel queues, and a yii2 and a marko connection on the restartable Redis, down unless a spec starts it.
const connectionsFile = e2eConnectionsFile();
const { hostname, port } = settingsFromEnv();
const restartable = { hostname: '127.0.0.1', port: RESTARTABLE_REDIS_PORT };
const { yii2: yii2Down, marko: markoDown } = REDIS_DOWN_CONNECTIONS;
writeFileSync(
  connectionsFile,
  JSON.stringify({
    connections: [
      { name: 'default', label: 'E2E queues', redis: { hostname, port }, prefix, alerts: E2E_ALERTS },
      { name: ARCHIVE_CONNECTION.name, label: ARCHIVE_CONNECTION.label, redis: { hostname, port }, prefix: ARCHIVE_CONNECTION.prefix(), readOnly: true },
      ...Object.values(YII2_CONNECTIONS).map(({ name, label, layout, channel }) => ({ name, label, redis: { hostname, port }, layout, channel: channel() })),
      {
        name: YII2_PAIR_CONNECTION.name,
        label: YII2_PAIR_CONNECTION.label,
        redis: { hostname, port },
        layout: YII2_PAIR_CONNECTION.layout,
        channels: YII2_PAIR_CONNECTION.channels(),
      },
      {
        name: MARKO_CONNECTION.name,
        label: MARKO_CONNECTION.label,
        redis: { hostname, port },
        layout: MARKO_CONNECTION.layout,
        prefix: MARKO_CONNECTION.prefix(),
        retryAfter: 90,
      },
      {
        name: LARAVEL_CONNECTION.name,
        label: LARAVEL_CONNECTION.label,
        redis: { hostname, port },
        layout: LARAVEL_CONNECTION.layout,
        prefix: LARAVEL_CONNECTION.prefix(),
        horizonPrefix: LARAVEL_CONNECTION.horizonPrefix(),
      },
      { name: yii2Down.name, label: yii2Down.label, redis: restartable, layout: yii2Down.layout, channel: yii2Down.queue() },
      { name: markoDown.name, label: markoDown.label, redis: restartable, layout: markoDown.layout, prefix: markoDown.prefix(), queues: [markoDown.queue()] },
    ],
  }),
);

// Every server keeps QueueLens's own keys (the audit log) under the run's prefix too.
const serverEnv = {
  QUEUE_PREFIX: prefix,
  QUEUELENS_PREFIX: e2eDashboardPrefix(),
  // One session store for all three servers, so that the sign-in setup's session is open on each (cookies ignore the port).
  QUEUELENS_SESSION_REDIS_URL: `redis://${hostname}:${port}`,
  QUEUELENS_SECRET: secrets.operator,
  QUEUELENS_VIEWER_SECRET: secrets.viewer,
  NEXT_TELEMETRY_DISABLED: '1',
  // Throughput samples every half second, so a spec sees history within a few seconds.
  QUEUELENS_SAMPLE_MS: '500',
};

export default defineConfig({
  testDir: './e2e',
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list'], ['html', { open: 'never' }]],
  use: {
    baseURL: `http://127.0.0.1:${APP_PORT}`,
    trace: 'retain-on-failure',
    browserName: 'chromium',
    launchOptions: {
      executablePath: browser,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    },
  },
  projects: [
    // Signs in through the form once; every other spec starts with that session (cookies ignore the port, so all three servers accept it).
    { name: 'sign-in', testMatch: /sign-in\.setup\.ts/ },
    { name: 'dashboard', dependencies: ['sign-in'], use: { storageState: OPERATOR_STATE } },
  ],
  // Started in order, so the second server finds the build the first one made.
  webServer: [
    {
      command: `npm run build && npm run start -- --host 127.0.0.1 --port ${APP_PORT}`,
      url: `http://127.0.0.1:${APP_PORT}`,
      env: { ...serverEnv, QUEUELENS_CONFIG: connectionsFile },
      reuseExistingServer: false,
      // The build runs first: minutes on a busy 2-core machine.
      timeout: 420_000,
    },
    {
      command: `npm run start -- --host 127.0.0.1 --port ${UNREACHABLE_APP_PORT}`,
      url: `http://127.0.0.1:${UNREACHABLE_APP_PORT}`,
      env: { ...serverEnv, REDIS_URL: UNREACHABLE_REDIS_URL },
      reuseExistingServer: false,
      timeout: 60_000,
    },
    {
      command: `npm run start -- --host 127.0.0.1 --port ${RESTARTABLE_APP_PORT}`,
      url: `http://127.0.0.1:${RESTARTABLE_APP_PORT}`,
      env: { ...serverEnv, REDIS_URL: `redis://127.0.0.1:${RESTARTABLE_REDIS_PORT}` },
      reuseExistingServer: false,
      timeout: 60_000,
    },
  ],
});
