'use client';

import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import type { NetworkPolicy, PolicyIssue } from '@/lib/network/policy/types';
import { ApiError } from '../../api';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { ErrorNote, RetryableError, Skeleton, Tip } from '../../ui/misc';
import { useCan } from '../../viewer';
import type { ConfigCardView } from '../queries';
import { EnforcementNote, FixedRanges } from './enforcement';
import { draftCheck } from './entries';
import { asPolicy, type NetworkSaved, type NetworkView, useConfigNetwork, useSetConfigNetwork } from './queries';
import { NetworkRulesFields } from './rules-fields';
import { SaveResult } from './save-result';
import { NetworkTester } from './tester';

/** The Network rules of one config: what it may reach, who enforces it, and a tester of the rules as edited. */
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
          <NetworkRulesFields
            backend={backend}
            draft={draft}
            issues={issues}
            warnings={warnings}
            disabled={disabled}
            installSources={view.installSources}
            onChange={change}
          />
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
          <NetworkTester configId={config.id} draft={unsaved ? draft : null} draftIssues={local} />
          <FixedRanges view={view} />
        </div>
      </div>
    </div>
  );
}
