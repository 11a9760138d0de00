// What a terminal session needs from a sandbox: one interactive shell with a TTY. Docker implements
// it with a TTY exec; a remote sandbox can implement it with its own PTY process API.

export interface TerminalPty {
  /** Bytes the shell writes; called in order. */
  onData(cb: (bytes: Buffer) => void): void;
  /** Called once when the shell has ended, with its exit code when known. */
  onExit(cb: (code: number | null) => void): void;
  write(bytes: Buffer): Promise<void>;
  resize(cols: number, rows: number): Promise<void>;
  /** Stops and restarts reading output while the socket drains (optional: the shell then waits on its TTY). */
  pause?(): void;
  resume?(): void;
  /** Ends the shell and every process it started; resolves once none of them remains. */
  kill(): Promise<void>;
}

export interface PtyOpenRequest {
  sessionId: string;
  userId: string;
  sandboxId: string;
  cols: number;
  rows: number;
  /** The env the credentials resolver gives for this user and sandbox. */
  env: Record<string, string>;
}

export type OpenPty = (req: PtyOpenRequest) => Promise<TerminalPty>;
