import type { Decision, GroupMode, Risk } from '@/lib/policy/types';

/** How each decision is named and coloured everywhere in the policy console. */
export const DECISION_LABEL: Record<Decision, string> = { allow: 'Allowed', deny: 'Denied', approval: 'Needs approval' };
export const DECISION_VARIANT: Record<Decision, 'success' | 'destructive' | 'warning'> = { allow: 'success', deny: 'destructive', approval: 'warning' };
/** The banner of a decision: a tinted panel with a strong border in the decision's colour. */
export const DECISION_PANEL: Record<Decision, string> = {
  allow: 'border-success/50 bg-success/10',
  deny: 'border-destructive/50 bg-destructive/10',
  approval: 'border-warning/60 bg-warning/15',
};
export const DECISION_COLOUR: Record<Decision, string> = { allow: 'var(--success)', deny: 'var(--destructive)', approval: 'var(--warning)' };
export const DECISIONS: Decision[] = ['allow', 'approval', 'deny'];

export const RISK_VARIANT: Record<Risk, 'secondary' | 'warning' | 'destructive'> = { low: 'secondary', medium: 'warning', high: 'destructive' };

export const GROUP_MODE_LABEL: Record<GroupMode, string> = { deny: 'Deny', approval: 'Ask an admin', off: 'Off' };

/** `deny_group:privilege_escalation` → `deny group: privilege escalation` for people; the raw id stays in a title. */
export function ruleLabel(rule: string): string {
  const [head, tail] = rule.split(':', 2);
  const words = (s: string) => s.replace(/_/g, ' ');
  return tail ? `${words(head)}: ${words(tail)}` : words(head);
}

/** The name a profile goes by in the console: presets keep their id, with a readable label. */
export function profileLabel(name: string): string {
  return name.replace(/_/g, ' ');
}

/** The non-empty lines of a pasted list, trimmed, without duplicates, in order. */
export function commandLines(text: string, max = 1000): string[] {
  const seen = new Set<string>();
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line && !seen.has(line)) seen.add(line);
    if (seen.size >= max) break;
  }
  return [...seen];
}
