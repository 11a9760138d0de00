'use client';

import { TriangleAlert } from 'lucide-react';
import { deniesAll } from '@/lib/network/policy/entry';
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import type { SandboxBackend } from '@/lib/sandbox/config/schema';
import { Button } from '../../ui/button';
import { Label } from '../../ui/input';
import { Switch } from '../../ui/switch';
import { CubeRulesEditor, E2bHostRulesEditor } from './backend-rules';
import { InstallSources } from './enforcement';
import { isDomain } from './entries';
import { EntryListEditor } from './entry-list';
import type { NetworkView } from './queries';

/**
 * The rules of a network policy as fields: deny by default, the allow and deny lists and the
 * backend's own rules. Editing a saved config's rules, and a new config's before its first save.
 */
export function NetworkRulesFields({
  backend,
  draft,
  issues,
  warnings,
  disabled,
  installSources,
  onChange,
}: {
  backend: SandboxBackend;
  draft: NetworkPolicy;
  issues: PolicyIssue[];
  warnings: string[];
  disabled: boolean;
  /** The install sources the config's installs reach (a saved config's); absent: not offered. */
  installSources?: NetworkView['installSources'];
  onChange: (patch: Partial<NetworkPolicy>) => void;
}) {
  const domainWithoutDenyAll = !draft.denyEgressByDefault && !deniesAll(draft.denyOut) && draft.allowOut.some(isDomain);
  return (
    <fieldset disabled={disabled} className="grid min-w-0 gap-4">
      <div className="flex items-start gap-3 rounded-md border px-3 py-2">
        <Switch
          id="net-deny-default"
          checked={draft.denyEgressByDefault}
          onCheckedChange={(v) => onChange({ denyEgressByDefault: v })}
          aria-describedby="net-deny-default-hint"
        />
        <div className="grid gap-1">
          <Label htmlFor="net-deny-default">Deny by default</Label>
          <p id="net-deny-default-hint" className="text-xs text-muted-foreground">
            {draft.denyEgressByDefault
              ? 'Only destinations an allow entry names are reachable.'
              : 'Everything not on the deny list or always blocked is reachable.'}
          </p>
        </div>
      </div>
      {issues.length ? (
        <div role="alert" className="grid gap-1 rounded-md border border-warning bg-warning/15 px-3 py-2 text-sm" data-slot="network-issues">
          <p className="flex items-center gap-2 font-medium">
            <TriangleAlert aria-hidden className="size-4" />{' '}
            {issues.length === 1 ? 'One rule to fix before saving' : `${issues.length} rules to fix before saving`}
          </p>
          <ul className="grid gap-0.5">
            {issues.map((i) => (
              <li key={`${i.path}:${i.message}`}>{i.message}</li>
            ))}
          </ul>
          {domainWithoutDenyAll ? (
            <div>
              <Button type="button" size="sm" variant="outline" onClick={() => onChange({ denyEgressByDefault: true })}>
                Turn on deny by default
              </Button>
            </div>
          ) : null}
        </div>
      ) : null}
      {warnings.length && !issues.length ? (
        <ul className="grid gap-0.5 rounded-md border px-3 py-2 text-xs text-muted-foreground" aria-label="Warnings" data-slot="network-warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <EntryListEditor
        list="allowOut"
        label="Allow"
        hint="An IP, a CIDR or a domain (*.example.com = its subdomains only); Enter adds it."
        placeholder="pypi.org, 10.0.0.0/8, 2001:db8::/32"
        backend={backend}
        draft={draft}
        issues={issues}
        disabled={disabled}
        onChange={(allowOut) => onChange({ allowOut })}
      />
      <EntryListEditor
        list="denyOut"
        label="Deny"
        hint="An IP or a CIDR; Enter adds it."
        placeholder="203.0.113.0/24"
        backend={backend}
        draft={draft}
        issues={issues}
        disabled={disabled}
        onChange={(denyOut) => onChange({ denyOut })}
      />
      {draft.denyEgressByDefault && installSources ? (
        <InstallSources
          sources={installSources}
          allowOut={draft.allowOut}
          disabled={disabled}
          onAllow={(entries) => onChange({ allowOut: [...draft.allowOut, ...entries] })}
        />
      ) : null}
      {backend === 'cube' ? <CubeRulesEditor rules={draft.cubeRules} issues={issues} onChange={(cubeRules) => onChange({ cubeRules })} /> : null}
      {backend === 'e2b' ? <E2bHostRulesEditor rules={draft.e2bHostRules} issues={issues} onChange={(e2bHostRules) => onChange({ e2bHostRules })} /> : null}
    </fieldset>
  );
}
