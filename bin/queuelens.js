#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly so `npx queuelens` works
// straight after `npm ci`, with no build step. tsx reads the tsconfig of the
// working directory unless told which: the checkout's own is named, so its
// `@/…` path aliases resolve wherever the command is run from.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('./cli.ts');
