import type { NextConfig } from 'next';

/** SKILLDOCK_ALLOWED_ORIGINS holds full origins; Next's server-action Origin check takes hosts. */
const allowedHosts = (process.env.SKILLDOCK_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((o) => o.trim())
  .filter(Boolean)
  .flatMap((o) => {
    try {
      return [new URL(o).host];
    } catch {
      return [];
    }
  });

const nextConfig: NextConfig = {
  // SSE and live logs must not be buffered by compression; a reverse proxy may compress other routes.
  // Several dev servers can share a checkout when each has its own build folder.
  distDir: process.env.SKILLDOCK_NEXT_DIST || '.next',
  compress: false,
  poweredByHeader: false,
  reactStrictMode: true,
  // These talk to native sockets, WASM or child processes and must be loaded by Node, not bundled.
  serverExternalPackages: ['@electric-sql/pglite', 'postgres', 'dockerode', 'ws', 'drizzle-orm', 'web-tree-sitter'],
  // Type checking runs once in the test suite (npm run typecheck), not again inside every build.
  typescript: { ignoreBuildErrors: true },
  experimental: {
    // The console's forms are server actions: Next refuses a call whose Origin is not this host or an
    // allowed one, as the REST wrapper does for cookie-authenticated writes. The skill-deps check sends
    // a skill's files (up to 8 MiB, like its REST route).
    serverActions: { allowedOrigins: allowedHosts, bodySizeLimit: '9mb' },
    // A CI machine builds once from a fresh checkout: writing Turbopack's build cache there costs
    // about 20 s that no later build reads.
    turbopackFileSystemCacheForBuild: process.env.CI !== 'true',
  },
};

export default nextConfig;
