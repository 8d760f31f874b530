import type { NextConfig } from 'next';

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
  // lib/queue/scripts.ts reads lua/*.lua at runtime through a computed path,
  // which output tracing cannot follow; without this a traced deployment
  // (output: 'standalone', Vercel) ships without the scripts.
  outputFileTracingIncludes: {
    '/*': ['./lua/**/*.lua'],
  },
};

export default nextConfig;
