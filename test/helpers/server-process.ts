// A process that boots like `npm start` — config from env, startServices, an HTTP server, the
// shutdown signal handler — without Next, for the data-dir lock and SIGTERM tests.
//   node --import tsx --import ./scripts/server-only-hook.mjs test/helpers/server-process.ts
// Env: the usual configuration, plus SKILLDOCK_TEST_EVENTS (a file events are appended to) and
// SKILLDOCK_TEST_MARKER / SKILLDOCK_TEST_GO (queue one job with a critical step, see critical-job.ts).
import fs from 'node:fs';
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { systemActor } from '@/lib/auth/actor';
import { scrubSecretEnv } from '@/lib/core/child-env';
import { loadConfig } from '@/lib/core/config';
import { logger } from '@/lib/core/logger';
import { enqueue } from '@/lib/jobs/queue';
import { startServices } from '@/lib/services';
import { handleShutdownSignals } from '@/lib/shutdown';
import { criticalTestHandler, criticalTestJob } from './critical-job';

const eventsFile = process.env.SKILLDOCK_TEST_EVENTS;
const note = (event: string) => {
  if (eventsFile) fs.appendFileSync(eventsFile, `${event}\n`);
};

try {
  const config = loadConfig();
  scrubSecretEnv();
  const services = await startServices({ config });
  services.jobKinds.register(criticalTestJob, criticalTestHandler(note));
  const close = services.database.close.bind(services.database);
  services.database.close = async () => {
    note('db-closed');
    await close();
  };
  const server = http.createServer((_req, res) => {
    services.database
      .rows(sql`select 1 as one`)
      .then((rows) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows)))
      .catch((e) => res.writeHead(500).end(String(e)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  handleShutdownSignals({ server, services });
  // After the shutdown handler: by the time this runs, the worker has already been asked to stop.
  process.on('SIGTERM', () => note('sigterm'));
  const { SKILLDOCK_TEST_MARKER: marker, SKILLDOCK_TEST_GO: go } = process.env;
  if (marker && go) await enqueue(services.database, systemActor, criticalTestJob, { marker, go }, { trusted: true });
  const address = server.address() as { port: number };
  process.stdout.write(`${JSON.stringify({ ready: true, pid: process.pid, port: address.port })}\n`);
} catch (e) {
  // As server.ts does: one clear line, exit 1.
  logger.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
}
