import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The house's doors (eslint.config.mjs) hold: each import below, planted in
 * a room it must not reach from, fails `npm run lint`, and the same file
 * with an allowed import passes.
 */
const eslint = new ESLint();

async function ruleIdsOf(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the rooms of eslint.config.mjs', () => {
  it.each([
    [
      'a component importing the Redis room',
      'components/ui/planted.tsx',
      "import { RedisConnection } from '@/lib/redis/connection';\nexport const planted = RedisConnection;\n",
    ],
    ['a component importing ioredis', 'components/ui/planted.tsx', "import Redis from 'ioredis';\nexport const planted = Redis;\n"],
    [
      'a component importing a layout’s room',
      'components/ui/planted.tsx',
      "import { yii2Layout } from '@/lib/layouts/yii2/layout';\nexport const planted = yii2Layout;\n",
    ],
    [
      'a component importing server-only glue',
      'components/ui/planted.tsx',
      "import { readOverview } from '@/lib/server/overview';\nexport const planted = readOverview;\n",
    ],
    [
      'a page importing a layout’s room',
      'app/planted/page.tsx',
      "import { staticphpLayout } from '@/lib/layouts/staticphp/layout';\nexport const planted = staticphpLayout;\n",
    ],
    [
      'a page importing StaticPHP’s driver',
      'app/planted/page.tsx',
      "import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';\nexport const planted = RedisQueue;\n",
    ],
    [
      'yii2 reaching into StaticPHP',
      'lib/layouts/yii2/planted.ts',
      "import { staticphpLayout } from '../staticphp/layout';\nexport const planted = staticphpLayout;\n",
    ],
    [
      'Laravel naming a type of StaticPHP’s',
      'lib/layouts/laravel/planted.ts',
      "import type { RedisQueue } from '../staticphp/redis-queue';\nexport type Planted = RedisQueue;\n",
    ],
    [
      'StaticPHP reaching into Laravel',
      'lib/layouts/staticphp/planted.ts',
      "import { laravelLayout } from '../laravel/layout';\nexport const planted = laravelLayout;\n",
    ],
    [
      'a component naming a type of one layout’s',
      'components/ui/planted.tsx',
      "import type { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';\nexport type Planted = RedisQueue;\n",
    ],
    [
      'server glue opening StaticPHP’s driver itself',
      'lib/server/planted.ts',
      "import { RedisQueue } from '@/lib/layouts/staticphp/redis-queue';\nexport const planted = RedisQueue;\n",
    ],
    ['marko reaching into yii2', 'lib/layouts/marko/planted.ts', "import { yii2Layout } from '../yii2/layout';\nexport const planted = yii2Layout;\n"],
    ['the Redis room importing a layout', 'lib/redis/planted.ts', "import { layoutOver } from '../layouts/open-layout';\nexport const planted = layoutOver;\n"],
    [
      'lib importing server-only glue',
      'lib/dashboard/planted.ts',
      "import { readOverview } from '../server/overview';\nexport const planted = readOverview;\n",
    ],
    ['a shape importing a reader', 'lib/shapes/planted.ts', "import { readKeyFacts } from '../layouts/key-layout';\nexport const planted = readKeyFacts;\n"],
  ])('refuses %s', async (_, filePath, code) => {
    const refusals = await ruleIdsOf(filePath, code);
    expect(refusals.length).toBeGreaterThan(0);
    for (const rule of refusals) expect(rule).toMatch(/no-restricted-(imports|paths)$/);
  });

  it.each([
    [
      'a component importing a shape',
      'components/ui/planted.tsx',
      "import { plural } from '@/components/ui/format-count';\nimport { jobIdAsRead } from '@/lib/shapes/job-ids';\nexport const planted = [plural, jobIdAsRead];\n",
    ],
    [
      'a component naming a reader’s type',
      'components/ui/planted.tsx',
      "import type { KeyContents } from '@/lib/layouts/key-layout';\nexport type Planted = KeyContents;\n",
    ],
    [
      'yii2 using the Redis room',
      'lib/layouts/yii2/planted.ts',
      "import { settledPipelines } from '../../redis/pipeline';\nexport const planted = settledPipelines;\n",
    ],
  ])('allows %s', async (_, filePath, code) => {
    expect(await ruleIdsOf(filePath, code)).toEqual([]);
  });
});
