import 'server-only';
import type http from 'node:http';
import { logger } from './core/logger';
import { type Services, stopServices } from './services';

const REQUEST_DRAIN_MS = 3000;

export interface ShutdownOptions {
  server: http.Server;
  services: Services;
  /** Default process.exit. */
  exit?: (code: number) => void;
}

/**
 * The one shutdown order, on SIGTERM or SIGINT: the worker stops claiming and its running jobs get
 * the grace period (a system package step is never interrupted), then the HTTP server closes, then
 * the event hub and the database. Exits 0, or 1 when something hangs well past the grace period.
 */
export function handleShutdownSignals(opts: ShutdownOptions): () => Promise<void> {
  const { server, services } = opts;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const graceMs = services.config.SKILLDOCK_SHUTDOWN_GRACE_MS;
  let stopping: Promise<void> | undefined;
  const shutdown = (signal: string) =>
    (stopping ??= (async () => {
      logger.info('shutting down', { signal, graceMs });
      const force = setTimeout(() => exit(1), graceMs + 15_000);
      force.unref();
      let code = 0;
      try {
        await services.worker?.stop(graceMs);
        await new Promise<void>((resolve) => {
          // Requests in flight still use the database: they finish first; long streams are cut after a bound.
          server.close(() => resolve());
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), REQUEST_DRAIN_MS).unref();
        });
        await stopServices(services);
      } catch (e) {
        code = 1;
        logger.error('shutdown error', { error: String(e) });
      }
      clearTimeout(force);
      exit(code);
    })());
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  return () => shutdown('request');
}
