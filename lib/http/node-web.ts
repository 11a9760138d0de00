import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RouteRequest } from './route-request';

// process-wide: a constant table, never written
const BODYLESS = new Set(['GET', 'HEAD']);

/**
 * A node request as a RouteRequest: headers read from the parsed headers (server.ts overwrites some,
 * the client address, before routing), and the signal and the body made only when an operation asks
 * for them — a gateway poll needs neither. A body never read is dumped by node:http once the answer
 * ends, as for any handler that ignores it.
 */
export function routeRequestOf(req: IncomingMessage, res: ServerResponse): RouteRequest {
  const method = req.method ?? 'GET';
  let signal: AbortSignal | undefined;
  let body: ReadableStream<Uint8Array> | null | undefined;
  return {
    method,
    url: `http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`,
    headers: {
      get(name: string): string | null {
        const v = req.headers[name.toLowerCase()];
        if (v === undefined) return null;
        return typeof v === 'string' ? v : v.join(', ');
      },
    },
    get signal() {
      signal ??= closeSignal(req, res);
      return signal;
    },
    get body() {
      if (body === undefined) body = BODYLESS.has(method) ? null : bodyOf(req, res);
      return body;
    },
  };
}

/** A signal that aborts if the connection closes before the answer is complete. */
function closeSignal(req: IncomingMessage, res: ServerResponse): AbortSignal {
  const ac = new AbortController();
  const abort = () => {
    if (!res.writableFinished) ac.abort(new Error('The client closed the connection.'));
  };
  if (req.socket?.destroyed) abort();
  else res.once('close', abort);
  return ac.signal;
}

const CHUNK_QUEUE = 256 * 1024;

/**
 * The request body as a stream that touches the socket only once read. A body the route never read,
 * or stopped reading (an answer before the upload ended: 413, 401), is drained once the answer is
 * sent, as node:http does for a handler that ignores the body, so the connection stays usable.
 */
function bodyOf(req: IncomingMessage, res: ServerResponse): ReadableStream<Uint8Array> {
  let ctl: ReadableStreamDefaultController<Uint8Array> | undefined;
  let done = false;
  const finish = (e?: Error) => {
    if (done) return;
    done = true;
    if (e) ctl?.error(e);
    else ctl?.close();
  };
  const onData = (chunk: Buffer) => {
    if (done || !ctl) return;
    ctl.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    if ((ctl.desiredSize ?? 0) <= 0) req.pause();
  };
  const detach = () => {
    req.off('data', onData);
    done = true;
    if (!req.complete) req.resume();
  };
  res.once('finish', detach);
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (!ctl) {
          ctl = c;
          req.on('data', onData);
          req.once('end', () => finish());
          req.once('error', (e) => finish(e));
          req.once('close', () => {
            if (!req.complete) finish(new Error('The client closed the connection before the request body ended.'));
          });
        }
        req.resume();
      },
      cancel: detach,
    },
    { highWaterMark: CHUNK_QUEUE, size: (c) => c.byteLength },
  );
}

/**
 * Sends a Web Response on a node response: status, headers (each set-cookie its own line), and the
 * body chunk by chunk as the stream yields it, waiting for the socket to drain; if the client goes
 * away the stream is cancelled, so its source stops.
 */
export async function sendWebResponse(res: ServerResponse, response: Response, head = false): Promise<void> {
  res.statusCode = response.status;
  if (response.statusText) res.statusMessage = response.statusText;
  for (const [k, v] of response.headers) if (k !== 'set-cookie') res.setHeader(k, v);
  const cookies = response.headers.getSetCookie();
  if (cookies.length) res.setHeader('set-cookie', cookies);
  const body = response.body;
  if (!body || head || response.status === 204 || response.status === 304) {
    if (body) await body.cancel().catch(() => undefined);
    res.end();
    return;
  }
  const reader = body.getReader();
  let gone = false;
  const onClose = () => {
    gone = true;
    reader.cancel().catch(() => undefined);
  };
  res.once('close', onClose);
  try {
    // Headers go out now, not with the first chunk: a stream that is quiet at first (SSE) must not hold them back.
    if (!response.headers.get('content-type')?.startsWith('application/json')) res.flushHeaders();
    for (;;) {
      const { done, value } = await reader.read();
      if (done || gone) break;
      if (!res.write(value)) await drained(res);
    }
    if (!gone) res.end();
  } catch (e) {
    // The stream failed after the status was sent: cut the connection so the client sees an incomplete answer.
    if (!gone) res.destroy(e instanceof Error ? e : new Error(String(e)));
  } finally {
    res.off('close', onClose);
  }
}

function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}
