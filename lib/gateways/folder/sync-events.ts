// The agent's event stream as the folder sync follows it: server-sent events over fetch, parsed
// line by line, resumed with Last-Event-ID. The caller reconnects with backoff and polls meanwhile.
import type { GatewayClient } from './sync-client';

const MAX_LINE = 1024 * 1024;

export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/** Parses SSE text as it arrives; `push` answers the events completed by the chunk. */
export class SseParser {
  private buf = '';
  private id: string | null = null;
  private event = '';
  private data: string[] = [];

  push(chunk: string): SseEvent[] {
    this.buf += chunk;
    const out: SseEvent[] = [];
    for (;;) {
      const nl = this.buf.indexOf('\n');
      if (nl < 0) break;
      const raw = this.buf.slice(0, nl);
      const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
      this.buf = this.buf.slice(nl + 1);
      if (line === '') {
        if (this.data.length || this.event) out.push({ id: this.id, event: this.event || 'message', data: this.data.join('\n') });
        this.event = '';
        this.data = [];
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
      else if (field === 'id' && !value.includes('\0')) this.id = value;
    }
    if (this.buf.length > MAX_LINE) throw new Error(`An event stream line is longer than ${MAX_LINE} characters.`);
    return out;
  }
}

/**
 * Opens the stream and calls `onVersion` for each `version` event until the stream ends (resolves)
 * or fails (throws a SyncFailure). `onOpen` runs once the server accepted the stream.
 */
export async function followVersions(
  client: GatewayClient,
  lastEventId: string | null,
  signal: AbortSignal,
  handlers: { onOpen: () => void; onVersion: (version: string) => void; onError: (data: string) => void },
): Promise<void> {
  const res = await client.request('/events', {
    headers: { accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal,
  });
  handlers.onOpen();
  if (!res.body) return;
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = res.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const ev of parser.push(decoder.decode(value, { stream: true }))) {
        if (ev.event === 'version') {
          const version = (JSON.parse(ev.data) as { version?: unknown }).version;
          if (typeof version === 'string') handlers.onVersion(version);
        } else if (ev.event === 'error') handlers.onError(ev.data);
      }
    }
  } finally {
    reader.releaseLock();
  }
}
