import { CircleAlert, CircleCheck, CircleX, Clock } from 'lucide-react';
import type { Decision } from '@/lib/policy/types';
import { Badge } from '../ui/badge';
import { DECISION_LABEL, DECISION_VARIANT, ruleLabel } from './view';

const ICON = { allow: CircleCheck, deny: CircleX, approval: CircleAlert } as const;

/** A decision as a coloured chip with an icon, so it reads without colour too. */
export function DecisionBadge({ decision, className }: { decision: Decision; className?: string }) {
  const Icon = ICON[decision];
  return (
    <Badge variant={DECISION_VARIANT[decision]} className={className} data-decision={decision}>
      <Icon aria-hidden className="size-3.5" /> {DECISION_LABEL[decision]}
    </Badge>
  );
}

/** How a request for approval ended, in the words of the other decisions (a rejected request is denied). */
const ENDED = {
  approved: { label: 'Approved', variant: 'success', Icon: CircleCheck },
  rejected: { label: 'Denied', variant: 'destructive', Icon: CircleX },
  expired: { label: 'Expired', variant: 'secondary', Icon: Clock },
} as const;

/**
 * An exec's decision as it finally stands: a command that needed approval shows how its request
 * ended (approved, denied, expired), and "Needs approval" only while it still waits.
 */
export function FinalDecisionBadge({ decision, approvalState }: { decision: Decision; approvalState: 'pending' | keyof typeof ENDED | null }) {
  if (decision !== 'approval' || !approvalState || approvalState === 'pending') return <DecisionBadge decision={decision} />;
  const { label, variant, Icon } = ENDED[approvalState];
  return (
    <Badge variant={variant} data-decision={decision} data-approval-state={approvalState} title={`Needed approval: ${label.toLowerCase()}`}>
      <Icon aria-hidden className="size-3.5" /> {label}
    </Badge>
  );
}

const SOLID = { allow: 'bg-success text-background', deny: 'bg-destructive text-destructive-foreground', approval: 'bg-warning text-black' } as const;

/** The decision as a solid, larger chip for the tester's banner (its tinted panel needs the contrast). */
export function DecisionChip({ decision }: { decision: Decision }) {
  const Icon = ICON[decision];
  return (
    <span data-decision={decision} className={`inline-flex items-center gap-1.5 rounded-full px-3 py-1 text-sm font-semibold ${SOLID[decision]}`}>
      <Icon aria-hidden className="size-4" /> {DECISION_LABEL[decision]}
    </span>
  );
}

/** A rule id in monospace, with its readable form as the tooltip. */
export function RuleCode({ rule }: { rule: string }) {
  return (
    <code className="break-all rounded bg-muted px-1 py-0.5 font-mono text-xs" title={ruleLabel(rule)}>
      {rule}
    </code>
  );
}
