// `next build` with output: 'standalone' leaves the browser's assets out of
// .next/standalone (a CDN is expected to serve them); QueueLens serves them
// itself, so they are copied in after every build.
import { cpSync, existsSync } from 'node:fs';

cpSync('.next/static', '.next/standalone/.next/static', { recursive: true });
if (existsSync('public')) cpSync('public', '.next/standalone/public', { recursive: true });
