// Follows the local engine's network events: a sandbox network removed behind Skilldock's back
// loses its rules and listeners, and after the engine restarts (the stream drops and comes back)
// the networks are reconciled again.
import type Docker from 'dockerode';
import { describeError, logger } from '../../core/logger';
import type { NetworkEnforcer } from '../../network/docker/enforcer';
import { LABEL_NETWORK_OWNER } from '../../network/docker/networks';

const RETRY_MS = 5000;

export function watchNetworkEvents(docker: Docker, enforcer: NetworkEnforcer, reconcile: () => Promise<void>): () => void {
  let stopped = false;
  let current: NodeJS.ReadableStream | null = null;
  let timer: NodeJS.Timeout | null = null;
  const again = () => {
    if (stopped) return;
    timer = setTimeout(() => void follow(true), RETRY_MS);
    timer.unref();
  };
  const follow = async (reconnect: boolean) => {
    if (stopped) return;
    try {
      const stream = (await docker.getEvents({
        filters: JSON.stringify({ type: ['network'], event: ['destroy'], label: [`${LABEL_NETWORK_OWNER}=${enforcer.opts.table}`] }),
      })) as NodeJS.ReadableStream;
      current = stream;
      if (reconnect) await reconcile();
      let buf = '';
      stream.on('data', (chunk: Buffer) => {
        buf += chunk.toString('utf8');
        for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
          const line = buf.slice(0, i);
          buf = buf.slice(i + 1);
          try {
            const name = (JSON.parse(line) as { Actor?: { Attributes?: { name?: string } } }).Actor?.Attributes?.name;
            if (name) void enforcer.forget(name);
          } catch {
            /* not an event line */
          }
        }
        if (buf.length > 65536) buf = '';
      });
      let ended = false;
      const onEnd = () => {
        if (ended) return;
        ended = true;
        again();
      };
      stream.on('error', () => undefined);
      stream.on('close', onEnd);
      stream.on('end', onEnd);
    } catch (e) {
      logger.warn('cannot follow the engine network events; retrying', { err: describeError(e) });
      again();
    }
  };
  void follow(false);
  return () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    (current as unknown as { destroy?: () => void } | null)?.destroy?.();
  };
}
