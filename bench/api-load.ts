// GET /api/v1/jobs under 50 concurrent connections, beside a trivial route (/api/ping) in the same run.
import autocannon from 'autocannon';
import { login, startServer } from './common';

export interface LoadResult {
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

function run(url: string, headers: Record<string, string>, connections: number, seconds: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections, duration: seconds }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

export async function apiLoad(
  connections = 50,
  seconds = 10,
  seedJobs = 200,
  env: Record<string, string> = {},
): Promise<{ jobs: LoadResult; trivial: LoadResult }> {
  const server = await startServer({ SKILLDOCK_WORKER: 'false', ...env });
  try {
    const cookie = await login(server.base);
    for (let i = 0; i < seedJobs; i++) {
      const r = await fetch(`${server.base}/api/v1/jobs`, {
        method: 'POST',
        headers: { cookie, origin: server.base, 'content-type': 'application/json' },
        body: JSON.stringify({ kind: 'pipeline-selftest', params: { lines: i + 1 } }),
      });
      if (r.status !== 202) throw new Error(`seeding failed: ${r.status}`);
    }
    const toResult = (path: string, r: autocannon.Result): LoadResult => ({
      path,
      requestsPerSecond: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      errors: r.errors,
      non2xx: r.non2xx,
    });
    await run(`${server.base}/api/ping`, {}, connections, 2); // warm-up
    await run(`${server.base}/api/v1/jobs`, { cookie }, connections, 2);
    const trivial = toResult('/api/ping', await run(`${server.base}/api/ping`, {}, connections, seconds));
    const jobs = toResult('/api/v1/jobs', await run(`${server.base}/api/v1/jobs`, { cookie }, connections, seconds));
    await server.stop();
    // Any error fails the section: timeouts, non-2xx answers, and errors the server logged (shutdown included).
    const failures = trivial.errors + trivial.non2xx + jobs.errors + jobs.non2xx + server.errorLines();
    if (failures) {
      throw new Error(
        `API load: ${jobs.non2xx + trivial.non2xx} non-2xx, ${jobs.errors + trivial.errors} client errors, ${server.errorLines()} server error lines`,
      );
    }
    return { jobs, trivial };
  } finally {
    await server.stop();
  }
}
