import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': fileURLToPath(new URL('.', import.meta.url)) } },
  test: {
    include: ['lib/**/*.test.ts', 'bin/**/*.test.ts', 'components/**/*.test.ts', 'docs/**/*.test.ts'],
    // Integration tests wait on real clocks (claims of one second, delays).
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
