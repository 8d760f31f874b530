import type { NextConfig } from 'next';
import { SECURITY_HEADERS } from './lib/auth/security-headers';

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  // `queuelens serve` runs .next/standalone/server.js: the build alone, no node_modules beside it.
  output: 'standalone',
  typedRoutes: true,
  // ioredis names its errors after their constructor (MaxRetriesPerRequestError
  // and the like); bundled and minified those names are lost, and the driver
  // could no longer tell a dead server from a refused command.
  serverExternalPackages: ['ioredis'],
  // lib/redis/scripts.ts reads lua/**/*.lua at runtime through a computed path,
  // which output tracing cannot follow; without this a traced deployment
  // (output: 'standalone', Vercel) ships without the scripts.
  outputFileTracingIncludes: {
    '/*': ['./lua/**/*.lua'],
  },
  // A trailing slash's 308 is sent by lib/serving/request-gate.ts, with the security headers;
  // Next's own would answer before any header could be added.
  skipTrailingSlashRedirect: true,
  // The static build output (outside proxy.ts' matcher) carries the security headers too.
  async headers() {
    return [{ source: '/:path*', headers: Object.entries(SECURITY_HEADERS).map(([key, value]) => ({ key, value })) }];
  },
};

export default nextConfig;
