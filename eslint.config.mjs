import { defineConfig, globalIgnores } from 'eslint/config';
import nextVitals from 'eslint-config-next/core-web-vitals';
import nextTypescript from 'eslint-config-next/typescript';

/*
 * The house's rooms and the way imports may run between them
 * (docs/architecture.md, "The house"). Type-only imports are erased before
 * anything runs, so a page may name a shape a reader returns; a value import
 * would bring the room itself along.
 */

/** Each layout's own room: its driver, keys, readers, repairs and doctor. Only lib/layouts' registry (open-layout.ts) opens one. */
const LAYOUT_ROOMS = ['./lib/layouts/staticphp', './lib/layouts/yii2', './lib/layouts/marko', './lib/layouts/laravel'];

const NEVER_REDIS = {
  group: ['@/lib/redis/*', '!@/lib/redis/errors', 'ioredis'],
  message: 'Only lib/ talks to Redis (lib/redis): a page asks lib/server, a component shows what it was given.',
};
/** Not even a type: a shape one layout's page and another's share lives in lib/shapes or lib/layouts/pages. */
const NEVER_A_LAYOUT = {
  group: ['@/lib/layouts/*/*'],
  message: 'A page never reaches into one layout: it asks the layout what it can do (lib/server) and shows what it gets.',
};
const COMPONENT_ROOMS = {
  // lib/layouts' own files but pages and adapter; a type of one layout's room is NEVER_A_LAYOUT's, refused too.
  regex: '^@/lib/(server/|dashboard/|layouts/(?!(pages|adapter)$)[^/]+$)',
  allowTypeImports: true,
  message: 'Components run in the browser: they import shapes (lib/shapes, lib/queries, lib/layouts/pages) and name other rooms’ types only.',
};

const pathZones = [
  {
    target: './lib/!(server)/**/*',
    from: ['./app', './components', './lib/server'],
    message: 'lib/ holds plain libraries the CLI and tests use too: it never imports pages, components or server-only glue.',
  },
  { target: './lib/redis', from: './lib', except: ['./redis', './shapes'], message: 'The Redis room knows connections, not queue layouts.' },
  ...LAYOUT_ROOMS.map((room) => ({
    target: room,
    from: LAYOUT_ROOMS.filter((other) => other !== room),
    message: 'One layout never reaches into another: what two layouts share lives in lib/layouts, lib/redis or lib/shapes.',
  })),
  {
    target: ['./lib/server', './lib/dashboard'],
    from: LAYOUT_ROOMS,
    message: 'The dashboard opens a layout through lib/layouts (open-layout.ts) and asks it what it can do; it never reaches into one.',
  },
];

export default defineConfig([
  ...nextVitals,
  ...nextTypescript,
  {
    files: ['components/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NEVER_REDIS, NEVER_A_LAYOUT, COMPONENT_ROOMS] }] },
  },
  {
    files: ['app/**'],
    rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: [NEVER_REDIS, NEVER_A_LAYOUT] }] },
  },
  {
    files: ['lib/shapes/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../*', '@/*', '!@/lib/shapes/*', 'ioredis'],
              allowTypeImports: true,
              message: 'Shapes are plain data the browser may import: they import only each other, and name other rooms’ types.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['lib/**'],
    ignores: ['**/*.test.ts', '**/test-*.ts'],
    rules: { 'import/no-restricted-paths': ['error', { zones: pathZones }] },
  },
  globalIgnores(['.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'next-env.d.ts']),
]);
