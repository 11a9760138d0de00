// Shapes shared by the parts of the loopback E2B server.
import type http from 'node:http';
import type Docker from 'dockerode';

export type Flavor = 'e2b' | 'cube';
export type Route = 'create' | 'list' | 'get' | 'delete' | 'timeout' | 'connect' | 'network' | 'envd' | 'any';

export interface Fault {
  route: Route;
  status: number;
  body?: unknown;
  /** Hold the answer this long first (a stalled control plane). */
  delayMs?: number;
  /** How many requests it answers (default 1). */
  times?: number;
}

export interface FakeSandbox {
  id: string;
  templateID: string;
  container: Docker.Container;
  metadata: Record<string, string>;
  envVars: Record<string, string>;
  secure: boolean;
  accessToken: string;
  startedAt: Date;
  endAt: Date;
  network?: unknown;
  processes: Map<number, FakeProcess>;
  nextPid: number;
}

export interface FakeProcess {
  config: { cmd: string; args: string[]; envs: Record<string, string>; cwd?: string };
  ended: boolean;
  pidFile: string;
  write(data: Buffer): void;
  closeStdin(): void;
  resize(cols: number, rows: number): Promise<void>;
  attach(res: http.ServerResponse): void;
}
