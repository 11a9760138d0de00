'use client';

import { toast } from 'sonner';
import { Select } from '../../ui/input';
import { useSetUpdatePolicy } from './queries';

export const POLICY_LABEL = { off: 'Off (not checked)', notify: 'Notify', auto: 'Auto (when the scan is clean)' } as const;
type Policy = keyof typeof POLICY_LABEL;

/** A source kind's policy, or one skill's (with "as its source" to follow the kind). */
export function PolicySelect({
  target,
  value,
  inherited,
  disabled,
}: {
  target: { kind: 'clawhub' | 'git' | 'url' } | { slug: string };
  value: Policy | null;
  inherited?: Policy;
  disabled?: boolean;
}) {
  const set = useSetUpdatePolicy();
  const name = 'kind' in target ? target.kind : target.slug;
  return (
    <Select
      aria-label={`Update policy of ${name}`}
      data-testid={`update-policy-${name}`}
      value={value ?? ''}
      disabled={disabled || set.isPending}
      className="h-8 w-56"
      onChange={(e) => {
        const policy = (e.target.value || null) as Policy | null;
        set.mutate('kind' in target ? { kind: target.kind, policy: policy ?? 'notify' } : { slug: target.slug, policy }, {
          onSuccess: () => toast.success(`Update policy of ${name}: ${policy ? POLICY_LABEL[policy] : 'as its source'}`),
          onError: (err) => toast.error('The policy was not changed', { description: err.message }),
        });
      }}
    >
      {'slug' in target ? <option value="">As its source ({inherited ? POLICY_LABEL[inherited] : '—'})</option> : null}
      {(Object.keys(POLICY_LABEL) as Policy[]).map((p) => (
        <option key={p} value={p}>
          {POLICY_LABEL[p]}
        </option>
      ))}
    </Select>
  );
}
