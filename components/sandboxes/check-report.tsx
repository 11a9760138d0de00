'use client';

import { Badge } from '../ui/badge';

export interface ProbeView {
  name: string;
  status: 'pass' | 'fail' | 'skipped';
  reason?: string;
  latencyMs: number;
  detail?: Record<string, string | number | boolean | null>;
}

/** What a probe found worth showing: the engine's version and the OCI runtimes it offers. */
function facts(p: ProbeView): string {
  const d = p.detail ?? {};
  const out: string[] = [];
  if (typeof d.version === 'string') out.push(`version ${d.version}`);
  if (typeof d.runtimes === 'string' && d.runtimes) out.push(`runtimes: ${d.runtimes}`);
  return out.join(' · ');
}

const VARIANT = { pass: 'success', fail: 'destructive', skipped: 'outline' } as const;

/** Reads the probes out of a stored or just-finished report; anything malformed is left out. */
export function probesOf(report: unknown): ProbeView[] {
  const probes = (report as { probes?: unknown } | null)?.probes;
  if (!Array.isArray(probes)) return [];
  return probes.filter((p): p is ProbeView => !!p && typeof p === 'object' && typeof p.name === 'string' && ['pass', 'fail', 'skipped'].includes(p.status));
}

/** One row per probe: its badge, latency and the reason when it failed or was skipped. */
export function ProbeList({ probes, label }: { probes: ProbeView[]; label: string }) {
  if (!probes.length) return null;
  return (
    <ul aria-label={label} className="grid gap-1 text-xs">
      {probes.map((p) => (
        <li key={p.name} data-probe={p.name} data-status={p.status} className="grid grid-cols-[5.5rem_4rem_1fr] items-start gap-2">
          <span className="font-medium">{p.name}</span>
          <Badge variant={VARIANT[p.status]} className="justify-center">
            {p.status}
          </Badge>
          <span className="text-muted-foreground">
            {p.latencyMs} ms{p.reason ? ` · ${p.reason}` : ''}
            {facts(p) ? ` · ${facts(p)}` : ''}
          </span>
        </li>
      ))}
    </ul>
  );
}
