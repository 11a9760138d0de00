'use client';

import type { PolicyOverrides } from '@/lib/policy/profiles/schema';
import type { DenyGroup, GroupMode, ProfileRules } from '@/lib/policy/types';
import { type DenyGroupInfo, DenyGroupsField, groupModes } from '../policy/deny-groups-field';
import { Button } from '../ui/button';
import { Label, Select } from '../ui/input';
import { Skeleton } from '../ui/misc';

type Switch = 'blockHighRisk' | 'approvalForMedium' | 'preChecks' | 'blockInterpreterArgs' | 'workspaceOnly';
const SWITCHES: { key: Switch; label: string; hint: string }[] = [
  { key: 'blockHighRisk', label: 'Block high-risk commands', hint: 'rm, curl, ssh, dd, … are refused unless the allowlist names them.' },
  { key: 'workspaceOnly', label: 'Workspace only', hint: 'Every path argument must stay under the workspace root.' },
  {
    key: 'approvalForMedium',
    label: 'Ask before medium-risk commands',
    hint: 'Mutating git and npm verbs, named package installs, touch, mkdir, mv, cp, ln, writes by redirect.',
  },
  { key: 'preChecks', label: 'Pre-checks', hint: 'Command substitution, unknown variables, &, and redirects or tee beyond ordinary files are refused.' },
  { key: 'blockInterpreterArgs', label: 'Block inline interpreter arguments', hint: 'python -c, node -e, find -exec, pip install, …' },
];
const EDITED = new Set<string>([...SWITCHES.map((s) => s.key), 'denyGroups']);
const onOff = (b: boolean) => (b ? 'On' : 'Off');

/** Overrides without empty parts; null when nothing is overridden (the agent follows its profile). */
export function normalOverrides(o: PolicyOverrides | null | undefined): PolicyOverrides | null {
  if (!o) return null;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined) continue;
    if (k === 'denyGroups' && !Object.keys(v as object).length) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? (out as PolicyOverrides) : null;
}

/** Per-agent overrides over the profile: each setting and deny group inherits from the profile or is set for this agent alone. */
export function AgentPolicyOverrides({
  value,
  onChange,
  profile,
  profileName,
  groups,
  disabled,
}: {
  value: PolicyOverrides | null;
  onChange: (v: PolicyOverrides | null) => void;
  profile: ProfileRules | undefined;
  profileName: string;
  groups: DenyGroupInfo[] | undefined;
  disabled: boolean;
}) {
  if (!profile || !groups) return <Skeleton className="h-64 w-full" />;
  const o = value ?? {};
  const set = (patch: Partial<PolicyOverrides>) => onChange(normalOverrides({ ...o, ...patch }));
  const inherited: Record<DenyGroup, GroupMode> = groupModes(profile.denyGroups, groups);
  const other = Object.keys(o).filter((k) => !EDITED.has(k));
  const label = `profile ${profileName}`;
  return (
    <div className="grid gap-4">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
        {SWITCHES.map((s) => {
          const own = o[s.key];
          const id = `policy-${s.key}`;
          return (
            <div key={s.key} className="grid content-start gap-1" data-override-field={s.key} data-inherits={String(own === undefined)}>
              <Label htmlFor={id}>{s.label}</Label>
              <Select
                id={id}
                value={own === undefined ? '' : own ? 'on' : 'off'}
                disabled={disabled}
                aria-describedby={`${id}-hint`}
                onChange={(e) => set({ [s.key]: e.target.value === '' ? undefined : e.target.value === 'on' })}
              >
                <option value="">Inherit ({onOff(profile[s.key])})</option>
                <option value="on">On</option>
                <option value="off">Off</option>
              </Select>
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {s.hint}
                {s.key === 'workspaceOnly' ? ` Root: ${o.workspaceRoot ?? profile.workspaceRoot}.` : ''}
              </p>
            </div>
          );
        })}
      </div>
      <div className="grid gap-2">
        <h3 className="text-sm font-medium">Deny groups</h3>
        <DenyGroupsField
          groups={groups}
          value={o.denyGroups ?? {}}
          onChange={(denyGroups) => set({ denyGroups })}
          disabled={disabled}
          inherited={inherited}
          inheritLabel={label}
        />
      </div>
      {other.length ? (
        <div className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm" data-testid="policy-other-overrides">
          <span>
            Also overridden (through the API): <span className="font-mono">{other.join(', ')}</span>. Kept as they are when you save.
          </span>
          <Button
            size="sm"
            variant="outline"
            disabled={disabled}
            onClick={() => set(Object.fromEntries(other.map((k) => [k, undefined])) as Partial<PolicyOverrides>)}
          >
            Inherit these too
          </Button>
        </div>
      ) : null}
      <div className="flex justify-end">
        <Button size="sm" variant="ghost" disabled={disabled || !value} onClick={() => onChange(null)} data-testid="policy-clear-overrides">
          Inherit everything from the profile
        </Button>
      </div>
    </div>
  );
}
