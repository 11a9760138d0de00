// The egress proxy's seams and counters: who judges, how names resolve and sockets dial, its
// limits, and what it reports.
import type net from 'node:net';
import type { Decision } from '../policy/types';
import type { EgressVia } from './tunnels';

export interface EgressJudge {
  /** A denial now, or null: resolve the name, then ask resolved(). */
  name(host: string, port: number): Decision | null;
  resolved(host: string, port: number, addresses: string[]): Decision;
}

export interface EgressDecisionEvent {
  client: string;
  host: string;
  port: number;
  via: EgressVia;
  decision: Decision;
  addresses: string[];
}

export interface EgressProxyOptions {
  judge: EgressJudge;
  /** A and AAAA records of a name (IP literals never reach it). */
  resolve: (host: string) => Promise<string[]>;
  /** Opens the upstream connection; net.connect by default. */
  dial?: (ip: string, port: number) => net.Socket;
  onDecision?: (e: EgressDecisionEvent) => void;
  /** Time to send the first bytes (SNI / request head); default 5000. */
  peekTimeoutMs?: number;
  /** Time for the upstream to accept; default 10000. */
  connectTimeoutMs?: number;
  /** Idle time (no byte either way) after which a tunnel is closed; default TUNNEL_IDLE_MS, 0 for none. */
  idleTimeoutMs?: number;
  /** Client connections open at once per listener; more are refused. Default 4096. */
  maxConnections?: number;
  /** Client connections one source address may hold open; the next is answered 429. Default MAX_CONNECTIONS_PER_CLIENT. */
  maxPerClient?: number;
  /**
   * Checked after the judge allowed, on every address the name resolved to (an IP literal is its own
   * address): a decision refuses the connection. The host's own addresses and other networks go here.
   */
  guard?: (addresses: string[]) => Promise<Decision | null>;
  /** A client over its connection cap was refused. */
  onLimit?: (e: { client: string; open: number; limit: number }) => void;
  /** A tunnel was ended because the policy no longer allows it. */
  onTunnelEnded?: (e: { client: string; host: string; port: number; ip: string; decision: Decision }) => void;
}

export interface EgressStats {
  /** Client connections open now. */
  open: number;
  /** Connections allowed and dialled. */
  accepted: number;
  /** Connections refused: by the judge, the guard, or because their first bytes named no destination. */
  denied: number;
  /** Connections refused because their source address held its cap. */
  limited: number;
  /** Tunnels open now (dialling or relaying). */
  tunnels: number;
  /** Tunnels ended by a policy change. */
  ended: number;
}
