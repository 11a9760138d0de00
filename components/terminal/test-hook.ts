import type { Terminal } from '@xterm/xterm';
import type { TerminalSocket } from './use-terminal-socket';

/** What end-to-end tests read from the page (xterm draws on a canvas, so the DOM holds no text). */
export interface TerminalTestHook {
  /** The whole buffer (scrollback and screen): each line trimmed right, wrapped rows joined, lines joined by \n. */
  text(): string;
  readonly sessionId: string | null;
  readonly offset: number;
  readonly cols: number;
  readonly rows: number;
  /** Closes only the socket, as a network drop would: the server keeps the shell and the client re-attaches. */
  dropSocket(): void;
}

declare global {
  interface Window {
    __skilldockTerminal?: TerminalTestHook;
  }
}

export function bufferText(term: Terminal): string {
  const buf = term.buffer.active;
  const lines: string[] = [];
  for (let i = 0; i < buf.length; i++) {
    const line = buf.getLine(i);
    if (!line) continue;
    // A row that wraps onto the next keeps its trailing spaces: they are part of the logical line.
    const text = line.translateToString(!buf.getLine(i + 1)?.isWrapped);
    if (line.isWrapped && lines.length) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines
    .map((l) => l.trimEnd())
    .join('\n')
    .trimEnd();
}

/**
 * Exposed in production builds too, because the end-to-end tests run against one. It is read-only
 * apart from dropSocket, which gives a page no power it lacks anyway (it can close its own socket).
 */
export function exposeTestHook(term: Terminal, socket: TerminalSocket): () => void {
  const hook: TerminalTestHook = {
    text: () => bufferText(term),
    get sessionId() {
      return socket.sessionId;
    },
    get offset() {
      return socket.offset;
    },
    get cols() {
      return term.cols;
    },
    get rows() {
      return term.rows;
    },
    dropSocket: () => socket.drop(),
  };
  window.__skilldockTerminal = hook;
  return () => {
    if (window.__skilldockTerminal === hook) delete window.__skilldockTerminal;
  };
}
