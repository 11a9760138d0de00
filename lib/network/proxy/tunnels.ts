// The proxy's open tunnels, kept so a tightened policy can end the ones it no longer allows, and the
// per-client count of connections that caps what one sandbox address may hold open.
import type net from 'node:net';
import type { Decision } from '../policy/types';

export type EgressVia = 'sni' | 'host' | 'connect' | 'absolute';

/** One allowed connection: dialling or relaying between the client and the checked address. */
export interface Tunnel {
  client: string;
  host: string;
  port: number;
  via: EgressVia;
  /** Every address the name resolved to when it was judged (the decision covered all of them). */
  addresses: string[];
  /** The address dialled (one of `addresses`). */
  ip: string;
  sockets: [net.Socket, net.Socket];
}

/** Judges a tunnel again; null keeps it. */
export type Redecide = (t: Tunnel) => Promise<Decision | null>;

export class TunnelRegistry {
  private readonly open = new Set<Tunnel>();

  add(t: Tunnel): void {
    this.open.add(t);
    let left = 2;
    for (const s of t.sockets)
      s.once('close', () => {
        if (--left === 0) this.open.delete(t);
      });
  }

  list(): Tunnel[] {
    return [...this.open];
  }

  get size(): number {
    return this.open.size;
  }

  /** Ends every tunnel whose new decision denies it; answers the ended ones with the decision that ended them. */
  async sweep(redecide: Redecide): Promise<{ tunnel: Tunnel; decision: Decision }[]> {
    const ended: { tunnel: Tunnel; decision: Decision }[] = [];
    for (const t of [...this.open]) {
      let d: Decision | null;
      try {
        d = await redecide(t);
      } catch {
        d = { allowed: false, kind: 'unresolved', rule: 'The tunnel could not be judged again, so it was closed.' };
      }
      if (!d || d.allowed) continue;
      for (const s of t.sockets) s.destroy();
      this.open.delete(t);
      ended.push({ tunnel: t, decision: d });
    }
    return ended;
  }
}

/** Open client connections per source address. */
export class ClientCounts {
  private readonly counts = new Map<string, number>();

  /** Takes a slot for `client` unless it already holds `limit`; the release is called once on close. */
  take(client: string, limit: number): (() => void) | null {
    const n = this.counts.get(client) ?? 0;
    if (n >= limit) return null;
    this.counts.set(client, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.counts.get(client) ?? 1) - 1;
      if (left <= 0) this.counts.delete(client);
      else this.counts.set(client, left);
    };
  }

  of(client: string): number {
    return this.counts.get(client) ?? 0;
  }
}
