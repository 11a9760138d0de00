import { Ban, CircleAlert, CircleCheck, CircleDashed, CircleX, ShieldAlert, ShieldCheck, ShieldQuestion, ShieldX, TriangleAlert } from 'lucide-react';
import { Badge } from '../ui/badge';
import type { ScanVerdict, SkillStatus, SourceKind } from './view';
import { SOURCE_LABELS } from './view';

type Variant = 'default' | 'secondary' | 'success' | 'warning' | 'destructive' | 'outline';

const VERDICT: Record<ScanVerdict | 'acknowledged', { label: string; variant: Variant; icon: typeof ShieldCheck; title: string }> = {
  clean: { label: 'Clean', variant: 'success', icon: ShieldCheck, title: 'The scanner found nothing of concern.' },
  warn: { label: 'Warning', variant: 'warning', icon: ShieldAlert, title: 'The scanner found things worth a look; the skill is not blocked.' },
  critical: { label: 'Critical', variant: 'destructive', icon: ShieldX, title: 'Critical findings: the skill is blocked until an admin acknowledges them.' },
  error: { label: 'Scan failed', variant: 'destructive', icon: ShieldQuestion, title: 'The scan could not complete, so the skill is blocked.' },
  acknowledged: {
    label: 'Acknowledged',
    variant: 'warning',
    icon: ShieldAlert,
    title: 'Critical findings were acknowledged by an admin: the skill runs despite them.',
  },
};

/** Scanner verdict: Clean / Warning / Critical / Acknowledged (critical findings an admin accepted). */
export function VerdictChip({ verdict, acknowledged, counts }: { verdict: ScanVerdict; acknowledged?: boolean; counts?: { critical: number; warn: number } }) {
  const key = acknowledged && (verdict === 'critical' || verdict === 'error') ? 'acknowledged' : verdict;
  const look = VERDICT[key] ?? VERDICT.error;
  const Icon = look.icon;
  const n = counts ? (key === 'warn' ? counts.warn : key === 'critical' || key === 'acknowledged' ? counts.critical : 0) : 0;
  // The chip's text is the verdict alone (Clean / Warning / Critical / Acknowledged); the count sits beside it.
  return (
    <span className="inline-flex items-center gap-1">
      <Badge variant={look.variant} data-testid="verdict-chip" data-verdict={key} title={look.title}>
        <Icon aria-hidden className="size-3.5" />
        {look.label}
      </Badge>
      {n > 0 ? (
        <span className="text-xs tabular-nums text-muted-foreground" title={`${n} ${key === 'warn' ? 'warning' : 'critical'} finding${n === 1 ? '' : 's'}`}>
          {n}
          <span className="sr-only">
            {' '}
            {key === 'warn' ? 'warning' : 'critical'} finding{n === 1 ? '' : 's'}
          </span>
        </span>
      ) : null}
    </span>
  );
}

const STATUS: Record<SkillStatus, { label: string; variant: Variant; icon: typeof CircleCheck }> = {
  ready: { label: 'Ready', variant: 'success', icon: CircleCheck },
  'needs-setup': { label: 'Needs setup', variant: 'warning', icon: CircleAlert },
  disabled: { label: 'Disabled', variant: 'secondary', icon: Ban },
  invalid: { label: 'Invalid', variant: 'destructive', icon: CircleX },
  blocked: { label: 'Blocked', variant: 'destructive', icon: TriangleAlert },
};

/** Readiness (status), with the first reason when the skill is not ready. */
export function StatusChip({
  status,
  reason,
  riskAccepted,
}: {
  status: SkillStatus;
  reason?: string /** Ready only because critical findings were acknowledged. */;
  riskAccepted?: boolean;
}) {
  const accepted = status === 'ready' && !!riskAccepted;
  const look = accepted ? { label: 'Ready · risk accepted', variant: 'warning' as const, icon: ShieldAlert } : (STATUS[status] ?? STATUS.invalid);
  const Icon = look.icon;
  return (
    <Badge
      variant={look.variant}
      data-testid="status-chip"
      data-status={status}
      data-risk-accepted={accepted || undefined}
      title={accepted ? 'An admin acknowledged critical scanner findings; review them on the skill’s Findings tab.' : reason}
      className="max-w-64"
    >
      <Icon aria-hidden className="size-3.5 shrink-0" />
      <span className="truncate">
        {look.label}
        {reason && status !== 'ready' ? <span className="font-normal">: {reason}</span> : null}
      </span>
    </Badge>
  );
}

export function SourceChip({ source, label }: { source: SourceKind; label?: string }) {
  return (
    <Badge variant="outline" data-testid="source-chip" data-source={source}>
      <CircleDashed aria-hidden className="size-3" />
      {label ?? SOURCE_LABELS[source]}
    </Badge>
  );
}

/** A skill's emoji, or a neutral placeholder so rows line up. */
export function SkillEmoji({ emoji, className }: { emoji: string | null | undefined; className?: string }) {
  return (
    <span aria-hidden className={className ?? 'inline-flex size-8 shrink-0 items-center justify-center rounded-md bg-muted text-lg'}>
      {emoji || '🧩'}
    </span>
  );
}
