#!/usr/bin/env node
// The CLI is TypeScript; tsx compiles it on the fly so `npx queuelens` works
// straight after `npm ci`, with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./cli.ts');
