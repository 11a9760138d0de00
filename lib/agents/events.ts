// An agent's version as server-sent events: `event: version` with `id: <version>` and data
// `{agentId, version}`, first at once (unless the client's Last-Event-ID is that version already),
// then on every change of the agent's effective skills. The version is the one the ETag of
// GET /api/v1/agents/{id}/skills carries, so a client fetches that list after each event.
// Only the newest version waits for a slow reader: versions supersede each other.
import { AppError, type ErrorBody } from '../core/errors';
import { SSE_HEADERS } from '../jobs/sse';
import type { AgentVersionWatcher } from './events-watcher';

export const AGENT_EVENTS_HEARTBEAT_MS = 15_000;
/** A version is a short token; a longer Last-Event-ID is ignored. */
const MAX_EVENT_ID = 200;

export interface AgentEventsOptions {
  /** Who opened the stream, and how many agent streams one owner may hold open at once. */
  owner?: string;
  maxPerOwner?: number;
  heartbeatMs?: number;
  /** Called with each heartbeat while the stream is open (a reader still follows). */
  onHeartbeat?: () => void;
}

/** Streams of this watcher open now per owner (tests). */
export const openAgentStreams = (watcher: AgentVersionWatcher, owner: string): number => watcher.openByOwner.get(owner) ?? 0;

/** The Last-Event-ID header, or the `lastEventId` query parameter (EventSource cannot set headers on a first connect). */
export function lastEventIdOf(req: { headers: { get(name: string): string | null }; url: string }): string | null {
  const v = req.headers.get('last-event-id') ?? new URL(req.url).searchParams.get('lastEventId');
  return v && v.length <= MAX_EVENT_ID ? v : null;
}

export const versionFrame = (agentId: string, version: string) => `id: ${version}\nevent: version\ndata: ${JSON.stringify({ agentId, version })}\n\n`;

/** The byte stream of one agent's version events; it ends when `signal` aborts, the reader leaves, or the agent is deleted. */
export function openAgentEvents(
  watcher: AgentVersionWatcher,
  agentId: string,
  lastEventId: string | null,
  signal: AbortSignal,
  opts: AgentEventsOptions = {},
): ReadableStream<Uint8Array> {
  const owner = opts.owner;
  if (owner !== undefined) {
    const open = watcher.openByOwner.get(owner) ?? 0;
    const max = opts.maxPerOwner ?? 16;
    if (open >= max) throw new AppError('rate_limited', `Too many open agent event streams (${open} of ${max}); close one before following another.`);
    watcher.openByOwner.set(owner, open + 1);
  }
  const enc = new TextEncoder();
  let sent = lastEventId;
  let pending = '';
  let gone: ErrorBody | null = null;
  let closed = false;
  let wake: (() => void) | null = null;
  let unsubscribe: (() => void) | undefined;
  let heartbeat: NodeJS.Timeout | undefined;

  const poke = () => {
    wake?.();
    wake = null;
  };
  const release = () => {
    if (closed) return;
    closed = true;
    clearInterval(heartbeat);
    unsubscribe?.();
    if (owner !== undefined) {
      const n = (watcher.openByOwner.get(owner) ?? 1) - 1;
      if (n > 0) watcher.openByOwner.set(owner, n);
      else watcher.openByOwner.delete(owner);
    }
    poke();
  };
  let latest: string | null = null;
  const onVersion = (version: string) => {
    latest = version;
    poke();
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const end = () => {
        release();
        try {
          controller.close();
        } catch {
          /* already closed */
        }
      };
      signal.addEventListener('abort', end, { once: true });
      if (signal.aborted) return release();
      controller.enqueue(enc.encode('retry: 2000\n\n'));
      unsubscribe = watcher.subscribe(agentId, {
        onVersion,
        onGone: (e) => {
          gone = e.body();
          poke();
        },
      });
      heartbeat = setInterval(() => {
        pending += `: ping ${Date.now()}\n\n`;
        poke();
        opts.onHeartbeat?.();
      }, opts.heartbeatMs ?? AGENT_EVENTS_HEARTBEAT_MS);
      heartbeat.unref?.();
    },
    async pull(controller) {
      for (;;) {
        if (closed) return;
        let out = pending;
        pending = '';
        if (latest !== null && latest !== sent) {
          out += versionFrame(agentId, latest);
          sent = latest;
        }
        if (gone) {
          out += `event: error\ndata: ${JSON.stringify(gone)}\n\n`;
          controller.enqueue(enc.encode(out));
          release();
          controller.close();
          return;
        }
        if (out) {
          controller.enqueue(enc.encode(out));
          return;
        }
        await new Promise<void>((resolve) => (wake = resolve));
      }
    },
    cancel() {
      release();
    },
  });
}

/** The stream as a response (see openAgentEvents). */
export function agentEventsResponse(...args: Parameters<typeof openAgentEvents>): Response {
  return new Response(openAgentEvents(...args), { status: 200, headers: SSE_HEADERS });
}
