// Enumerates the REST routes from the filesystem, so a new route file cannot escape the security tests.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './server';

export interface RouteFile {
  file: string;
  /** URL pattern in OpenAPI style, e.g. /api/v1/jobs/{id}. */
  pattern: string;
  methods: string[];
  /** operation (and contract) name bound by each method: `export const GET = route(ops.listJobs)` */
  contracts: Record<string, string | null>;
}

export function routeFiles(dir = 'app/api/v1'): RouteFile[] {
  const out: RouteFile[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(path.join(ROOT, d), { withFileTypes: true })) {
      const rel = path.join(d, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name === 'route.ts') {
        const src = fs.readFileSync(path.join(ROOT, rel), 'utf8');
        const methods = [...src.matchAll(/export\s+(?:const|async function|function)\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((m) => m[1]);
        const reexports = [...src.matchAll(/export\s*\{([^}]*)\}/g)].flatMap((m) =>
          [...m[1].matchAll(/\bas\s+(GET|POST|PUT|PATCH|DELETE)\b/g)].map((x) => x[1]),
        );
        const contracts: Record<string, string | null> = {};
        for (const m of methods) contracts[m] = new RegExp(`export\\s+const\\s+${m}\\s*=\\s*route\\(\\s*ops\\.(\\w+)\\s*\\)`).exec(src)?.[1] ?? null;
        for (const m of reexports) contracts[m] = null;
        const pattern =
          '/' +
          path
            .dirname(rel)
            .split(path.sep)
            .slice(1)
            .map((s) => s.replace(/^\[(.+)\]$/, '{$1}'))
            .join('/');
        out.push({ file: rel, pattern, methods: [...methods, ...reexports], contracts });
      }
    }
  };
  walk(dir);
  return out;
}

/** A concrete URL for a pattern, with a well-formed but unknown id. */
export const concrete = (pattern: string) => pattern.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
