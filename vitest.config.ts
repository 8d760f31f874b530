import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Fleets of worker processes killed with SIGKILL, one of them with busy loops
 * starving the CPU for up to a minute and a half: they run alone, after every
 * other test, so that none of them is starved, nor they by the others.
 */
const CHAOS_TESTS = ['lib/worker/chaos.test.ts', 'lib/worker/trash-chaos.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    // Integration tests wait on real clocks (claims of one second, delays).
    testTimeout: 30_000,
    hookTimeout: 30_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/**/*.test.ts', 'bin/**/*.test.ts', 'components/**/*.test.ts', 'docs/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...CHAOS_TESTS],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'chaos', include: CHAOS_TESTS, fileParallelism: false, sequence: { groupOrder: 1 } } },
    ],
  },
});
