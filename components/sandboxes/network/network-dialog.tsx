'use client';

import { TriangleAlert } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { deniesAll } from '@/lib/network/policy/entry';
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import { ApiError } from '../../api';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { Label } from '../../ui/input';
import { ErrorNote, RetryableError, Skeleton, Tip } from '../../ui/misc';
import { Switch } from '../../ui/switch';
import { useCan } from '../../viewer';
import type { ConfigCardView } from '../queries';
import { CubeRulesEditor, E2bHostRulesEditor } from './backend-rules';
import { EnforcementNote, FixedRanges, InstallSources } from './enforcement';
import { draftCheck, isDomain } from './entries';
import { EntryListEditor } from './entry-list';
import { asPolicy, type NetworkSaved, type NetworkView, useConfigNetwork, useSetConfigNetwork } from './queries';
import { SaveResult } from './save-result';
import { NetworkTester } from './tester';

/** The Network rules of one config: what it may reach, who enforces it, and a tester of the saved rules. */
export function NetworkDialog({
  open,
  onOpenChange,
  config,
  canWrite,
  why,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  config: ConfigCardView;
  canWrite: boolean;
  why?: string;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Network rules of ${config.name}`}
      description="What sandboxes of this config may reach. Loopback, link-local and cloud metadata stay blocked whatever the rules."
      className="max-h-[90vh] max-w-5xl overflow-y-auto"
    >
      <NetworkPanel config={config} canWrite={canWrite} why={why} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}

/** The rules editor of a saved config, once its policy has loaded (in the dialog and the editor's Network step). */
export function NetworkPanel({ config, canWrite, why, onDone }: { config: ConfigCardView; canWrite: boolean; why?: string; onDone?: () => void }) {
  const net = useConfigNetwork(config.id);
  const needed = useCan('sandboxes.write').why;
  if (net.isPending) return <Skeleton className="h-64 w-full" />;
  if (net.error) return <RetryableError error={net.error} onRetry={() => void net.refetch()} />;
  return <NetworkEditor config={config} view={net.data} canWrite={canWrite} why={why ?? needed} onDone={onDone} />;
}

function NetworkEditor({
  config,
  view,
  canWrite,
  why,
  onDone,
}: {
  config: ConfigCardView;
  view: NetworkView;
  canWrite: boolean;
  why?: string;
  onDone?: () => void;
}) {
  const [saved, setSaved] = useState(() => asPolicy(view.policy));
  const [draft, setDraft] = useState(saved);
  const [serverIssues, setServerIssues] = useState<PolicyIssue[]>([]);
  const [error, setError] = useState<unknown>(null);
  const [reached, setReached] = useState<NetworkSaved['sandboxes'] | null>(null);
  const save = useSetConfigNetwork(config.id);
  const backend = config.backend;
  const { issues: local, warnings } = useMemo(() => draftCheck(backend, draft), [backend, draft]);
  const issues = local.length ? local : serverIssues;
  const unsaved = JSON.stringify(draft) !== JSON.stringify(saved);
  const domainWithoutDenyAll = !draft.denyEgressByDefault && !deniesAll(draft.denyOut) && draft.allowOut.some(isDomain);

  function change(patch: Partial<NetworkPolicy>) {
    setDraft((d) => ({ ...d, ...patch }));
    setServerIssues([]);
    setReached(null);
  }

  async function onSave() {
    setError(null);
    try {
      const out = await save.mutateAsync(draft);
      const next = asPolicy(out.policy);
      setSaved(next);
      setDraft(next);
      setReached(out.sandboxes);
      toast.success(`Saved the network rules of ${config.name}`, {
        description: out.sandboxes.length
          ? `${out.sandboxes.filter((s) => s.status === 'updated').length} of ${out.sandboxes.length} running sandbox(es) updated.`
          : undefined,
      });
    } catch (e) {
      if (e instanceof ApiError && e.issues.length) setServerIssues(e.issues.map((i) => ({ ...i, path: i.path.replace(/^(body\.)?policy\./, '') })));
      else setError(e);
    }
  }

  const disabled = !canWrite;
  return (
    <div className="@container">
      <div className="grid grid-cols-1 gap-4 @3xl:grid-cols-[minmax(0,1fr)_20rem]" data-slot="network-editor" data-config={config.name}>
        <div className="grid min-w-0 content-start gap-4">
          <fieldset disabled={disabled} className="grid min-w-0 gap-4">
            <div className="flex items-start gap-3 rounded-md border px-3 py-2">
              <Switch
                id="net-deny-default"
                checked={draft.denyEgressByDefault}
                onCheckedChange={(v) => change({ denyEgressByDefault: v })}
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
                    <Button type="button" size="sm" variant="outline" onClick={() => change({ denyEgressByDefault: true })}>
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
              onChange={(allowOut) => change({ allowOut })}
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
              onChange={(denyOut) => change({ denyOut })}
            />
            {draft.denyEgressByDefault ? (
              <InstallSources
                sources={view.installSources}
                allowOut={draft.allowOut}
                disabled={disabled}
                onAllow={(entries) => change({ allowOut: [...draft.allowOut, ...entries] })}
              />
            ) : null}
            {backend === 'cube' ? <CubeRulesEditor rules={draft.cubeRules} issues={issues} onChange={(cubeRules) => change({ cubeRules })} /> : null}
            {backend === 'e2b' ? <E2bHostRulesEditor rules={draft.e2bHostRules} issues={issues} onChange={(e2bHostRules) => change({ e2bHostRules })} /> : null}
          </fieldset>
          <ErrorNote error={error} />
          {reached ? <SaveResult sandboxes={reached} /> : null}
          <div className="flex flex-wrap items-center justify-end gap-2">
            {why ? (
              <span className="mr-auto text-xs text-muted-foreground">Read-only. {why}</span>
            ) : unsaved ? (
              <span className="mr-auto text-xs text-muted-foreground">Unsaved changes</span>
            ) : null}
            {onDone ? (
              <Button type="button" variant="outline" onClick={onDone}>
                {unsaved ? 'Cancel' : 'Close'}
              </Button>
            ) : null}
            <Tip content={why}>
              <Button type="button" disabled={!canWrite || save.isPending || local.length > 0 || !unsaved} onClick={onSave}>
                {save.isPending ? 'Saving…' : 'Save rules'}
              </Button>
            </Tip>
          </div>
        </div>
        <div className="grid min-w-0 content-start gap-4">
          <EnforcementNote view={view} />
          <NetworkTester configId={config.id} unsaved={unsaved} />
          <FixedRanges view={view} />
        </div>
      </div>
    </div>
  );
}
