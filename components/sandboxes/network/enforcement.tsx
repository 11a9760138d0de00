'use client';

import { Plus, ShieldCheck } from 'lucide-react';
import type { EnforcedBy } from '@/lib/network/policy/types';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import type { NetworkView } from './queries';

export const ENFORCED_LABEL: Record<EnforcedBy, string> = {
  'host-firewall+proxy': 'host firewall + proxy',
  'proxy-only': 'proxy only',
  e2b: 'by E2B',
  cube: 'by Cube',
  none: 'not enforced',
};

/** What enforces the policy, and whether running sandboxes take a change without a recycle. */
export function EnforcementNote({ view }: { view: NetworkView }) {
  return (
    <div className="grid gap-1 rounded-md border px-3 py-2 text-sm" data-slot="network-enforcement" data-enforced-by={view.enforcedBy}>
      <div className="flex flex-wrap items-center gap-2">
        <ShieldCheck aria-hidden className="size-4 text-muted-foreground" />
        <span className="font-medium">Enforced</span>
        <Badge variant={view.enforcedBy === 'none' ? 'warning' : 'success'}>{ENFORCED_LABEL[view.enforcedBy]}</Badge>
      </div>
      <p className="text-muted-foreground">{view.enforcement}</p>
      {view.backendGaps.length ? (
        <ul className="grid list-disc gap-1 pl-5 text-foreground" data-slot="network-backend-gaps" aria-label="What this backend does not block">
          {view.backendGaps.map((g) => (
            <li key={g}>{g}</li>
          ))}
        </ul>
      ) : null}
      {view.liveUpdate ? null : (
        <p className="text-foreground">Running sandboxes keep their old rules: recycle them (remove and start again) for a change to reach them.</p>
      )}
    </div>
  );
}

function Ranges({ title, ranges }: { title: string; ranges: NetworkView['alwaysBlocked'] }) {
  return (
    <details className="rounded-md border px-3 py-2 text-sm">
      <summary className="cursor-pointer font-medium">
        {title} ({ranges.length})
      </summary>
      <ul className="mt-2 grid gap-1">
        {ranges.map((r) => (
          <li key={r.cidr} className="flex flex-wrap gap-x-2 break-words">
            <span className="font-mono">{r.cidr}</span>
            <span className="text-muted-foreground">{r.why}</span>
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The ranges no policy can open, and the private ranges only an explicit allow entry opens; read-only. */
export function FixedRanges({ view }: { view: NetworkView }) {
  return (
    <div className="grid gap-2">
      <Ranges title="Always blocked, whatever the rules" ranges={view.alwaysBlocked} />
      <Ranges title="Private ranges: denied unless an allow entry names them" ranges={view.privateRanges} />
    </div>
  );
}

/** Under deny-by-default, the package sources installs need, each allowed in one click. */
export function InstallSources({
  sources,
  allowOut,
  disabled,
  onAllow,
}: {
  sources: NetworkView['installSources'];
  allowOut: string[];
  disabled: boolean;
  onAllow: (entries: string[]) => void;
}) {
  if (!sources.length) return null;
  return (
    <div className="grid gap-2 rounded-md border px-3 py-2 text-sm" data-slot="network-install-sources">
      <p className="font-medium">Install sources</p>
      <p className="text-xs text-muted-foreground">Installs into these sandboxes need these hosts under deny-by-default.</p>
      <ul className="grid gap-1.5">
        {sources.map((s) => {
          const missing = s.entries.filter((e) => !allowOut.includes(e));
          return (
            <li key={`${s.manager}:${s.label}`} className="flex flex-wrap items-center justify-between gap-2">
              <span>
                {s.label} <span className="break-all font-mono text-xs text-muted-foreground">{s.entries.join(', ')}</span>
              </span>
              {missing.length ? (
                <Button type="button" size="sm" variant="outline" disabled={disabled} aria-label={`Allow ${s.label}`} onClick={() => onAllow(missing)}>
                  <Plus aria-hidden /> Allow
                </Button>
              ) : (
                <Badge variant="success">allowed</Badge>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
