import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';

/** Starves the CPU with busy loops for up to a minute and a half: it runs alone, after every other test, so none of them is starved. */
const CHAOS_TEST = 'lib/worker/chaos.test.ts';

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
          exclude: [...configDefaults.exclude, CHAOS_TEST],
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: 'chaos', include: [CHAOS_TEST], sequence: { groupOrder: 1 } } },
    ],
  },
});
