'use client';

import { Badge } from '../../ui/badge';
import type { NetworkSaved } from './queries';

const STATUS = {
  updated: { label: 'updated', variant: 'success' },
  'needs-recycle': { label: 'needs recycle', variant: 'warning' },
  failed: { label: 'failed', variant: 'destructive' },
} as const;

/** After a save: each running sandbox of the config, and whether the change reached it. */
export function SaveResult({ sandboxes }: { sandboxes: NetworkSaved['sandboxes'] }) {
  return (
    <div className="grid gap-1.5 rounded-md border px-3 py-2 text-sm" data-slot="network-save-result">
      <p className="font-medium">Running sandboxes</p>
      {sandboxes.length === 0 ? (
        <p className="text-xs text-muted-foreground">No sandbox of this config is running: new ones start with these rules.</p>
      ) : (
        <ul className="grid gap-1" aria-label="Running sandboxes reached">
          {sandboxes.map((s) => (
            <li key={s.sandboxId} className="flex flex-wrap items-center gap-2" data-sandbox={s.sandboxId} data-status={s.status}>
              <span className="break-all font-mono text-xs">{s.sandboxId}</span>
              <Badge variant={STATUS[s.status].variant}>{STATUS[s.status].label}</Badge>
              {s.message ? <span className="text-xs text-muted-foreground">{s.message}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
