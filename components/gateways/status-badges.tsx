'use client';

import { Badge } from '../ui/badge';
import { RelativeTime } from '../ui/time';
import { type Gateway, STATUS_LABELS, statusKey } from './view';

const VARIANT = { reachable: 'success', unreachable: 'destructive', invalid: 'destructive', 'read-only': 'warning', unchecked: 'secondary' } as const;

/** The last connection test in one badge; its tooltip says when it ran and what failed. */
export function StatusBadge({ status }: { status: Gateway['status'] }) {
  const key = statusKey(status);
  const title = status
    ? [`Tested ${new Date(status.checkedAt).toLocaleString()}`, status.error].filter(Boolean).join('\n')
    : 'Not tested yet: use Test connection.';
  return (
    <Badge variant={VARIANT[key]} title={title} data-testid="gateway-status" data-status={key}>
      {STATUS_LABELS[key]}
    </Badge>
  );
}

/** How many differences the last drift check found (none checked yet: a dash). */
export function DriftBadge({ drift }: { drift: Gateway['drift'] }) {
  if (!drift)
    return (
      <span className="text-muted-foreground" title="Drift not checked yet">
        –
      </span>
    );
  return drift.count ? (
    <Badge variant="warning" data-testid="gateway-drift" title={`Checked ${new Date(drift.checkedAt).toLocaleString()}`}>
      {drift.count} drift
    </Badge>
  ) : (
    <Badge variant="success" data-testid="gateway-drift" title={`Checked ${new Date(drift.checkedAt).toLocaleString()}`}>
      in sync
    </Badge>
  );
}

/** The last sync: when, and whether it worked (its message in the tooltip). */
export function LastSync({ sync }: { sync: Gateway['lastSync'] }) {
  if (!sync) return <span className="text-sm text-muted-foreground">never synced</span>;
  return (
    <span className="inline-flex items-center gap-1.5 text-sm" title={sync.message} data-testid="gateway-last-sync" data-ok={sync.ok}>
      <RelativeTime iso={sync.at} />
      <Badge variant={sync.ok ? 'success' : 'destructive'}>{sync.ok ? 'ok' : 'failed'}</Badge>
    </span>
  );
}
