// /ws/terminal: the browser terminal's socket. The ticket, Origin, sandbox, geometry and limits are
// checked before the handshake (a refusal is a plain HTTP 4xx); once accepted, binary frames carry
// terminal bytes and JSON text frames carry control, with close codes naming why a socket ended.
import type { WebSocket } from 'ws';
import { CLOSE, encodeServerFrame, MAX_INPUT_FRAME_BYTES, parseClientFrame, type ServerFrame } from '../terminal/frames';
import { connectRelay, pipeRelay, RELAY_HEADER } from '../terminal/relay';
import { type PreparedTerminal, TERMINAL_PERMISSION } from '../terminal/service';
import type { TerminalConsumer, TerminalSession } from '../terminal/session';
import { HIGH_WATER, keepAlive, LOW_WATER } from '../terminal/socket-flow';
import type { SocketRoute } from './ws-router';

/** Control frames (resize, ping) one socket may send per second before it is cut off. */
const MAX_CONTROL_PER_SECOND = 50;

/** A socket relayed to the replica holding the shell carries the upstream socket, opened before the handshake. */
type Prepared = PreparedTerminal & { upstream?: WebSocket };

export const terminalSocket: SocketRoute<Prepared> = {
  path: '/ws/terminal',
  permission: TERMINAL_PERMISSION,
  // Frames past the input limit are refused by the parser (close 4003); ws itself drops ones past
  // this (close 1009) before buffering them.
  maxPayload: 16 * MAX_INPUT_FRAME_BYTES,
  // parseClientFrame refuses invalid UTF-8 with bad_frame (4004), ending the session.
  checksUtf8: true,
  async prepare({ actor, url, services, req }) {
    const q = (n: string) => url.searchParams.get(n);
    const origin = req.headers.origin ?? null;
    const grant = req.headers[RELAY_HEADER];
    const prepared: Prepared = await services.terminals.prepare(
      actor,
      { ticket: q('ticket'), sandbox: q('sandbox'), cols: q('cols'), rows: q('rows'), session: q('session'), offset: q('offset') },
      origin,
      typeof grant === 'string' ? grant : null,
    );
    if (!prepared.relay) return prepared;
    // The holder sees the same query without the spent ticket.
    const query = new URLSearchParams(url.searchParams);
    query.delete('ticket');
    return { ...prepared, upstream: await connectRelay({ address: prepared.relay.address, query, req, grant: prepared.relay.grant }) };
  },
  onConnection(ws, { services, prepared }) {
    if (prepared.upstream) return pipeRelay(ws, prepared.upstream);
    const adapter = new SocketConsumer(ws);
    let session: TerminalSession | null = null;
    let controlWindow = { at: Date.now(), n: 0 };
    const stopKeepAlive = keepAlive(ws);
    // A client breaking the protocol loses the session too: its shell ends now, not after the grace,
    // even when it broke it before the shell was up.
    let refusedWith: keyof typeof CLOSE | null = null;
    const refuse = (kind: keyof typeof CLOSE, message: string) => {
      adapter.control({ type: 'error', code: CLOSE[kind].reason, message });
      refusedWith ??= kind;
      if (session) void session.end(kind);
      else adapter.close(CLOSE[kind].code, CLOSE[kind].reason);
    };
    ws.on('message', (data, isBinary) => {
      const frame = parseClientFrame(data as Buffer, isBinary);
      if (frame.kind !== 'input') {
        const now = Date.now();
        if (now - controlWindow.at >= 1000) controlWindow = { at: now, n: 0 };
        if (++controlWindow.n > MAX_CONTROL_PER_SECOND) return refuse('limit', 'too many control frames');
      }
      if (frame.kind === 'refused') return refuse(frame.close, frame.message);
      if (!session) return; // Frames before the shell is up are dropped; the client waits for `ready`.
      if (frame.kind === 'input') session.input(frame.bytes);
      else if (frame.kind === 'resize') session.resize(frame.cols, frame.rows);
      else adapter.control({ type: 'pong' });
    });
    ws.on('close', () => {
      stopKeepAlive();
      adapter.closed = true;
      session?.detach(adapter);
    });
    adapter.onFlow = (flowing) => session?.setFlowing(adapter, flowing);
    services.terminals.connect(prepared, adapter).then(
      (s) => {
        session = s;
        if (refusedWith) void s.end(refusedWith);
        else if (adapter.closed) s.detach(adapter);
      },
      (e: unknown) => {
        const err = e as { code?: string; message?: string };
        adapter.control({ type: 'error', code: err.code ?? 'internal', message: err.message ?? 'The terminal could not be opened.' });
        const kind = err.code === 'rate_limited' ? 'limit' : 'internal';
        adapter.close(CLOSE[kind].code, CLOSE[kind].reason);
      },
    );
  },
};

/** The session's view of one socket, with output back-pressure. */
class SocketConsumer implements TerminalConsumer {
  closed = false;
  onFlow: (flowing: boolean) => void = () => {};
  private paused = false;
  private drainTimer: NodeJS.Timeout | null = null;

  constructor(private readonly ws: WebSocket) {}

  send(bytes: Buffer): void {
    if (this.closed) return;
    this.ws.send(bytes, { binary: true });
    if (!this.paused && this.ws.bufferedAmount > HIGH_WATER) {
      this.paused = true;
      this.onFlow(false);
      this.waitForDrain();
    }
  }

  control(frame: ServerFrame): void {
    if (!this.closed) this.ws.send(encodeServerFrame(frame));
  }

  close(code: number, reason: string): void {
    if (this.drainTimer) clearTimeout(this.drainTimer);
    if (this.closed) return;
    this.closed = true;
    this.ws.close(code, reason);
  }

  private waitForDrain(): void {
    this.drainTimer = setTimeout(() => {
      if (this.closed) return;
      if (this.ws.bufferedAmount > LOW_WATER) return this.waitForDrain();
      this.paused = false;
      this.onFlow(true);
    }, 10);
  }
}
