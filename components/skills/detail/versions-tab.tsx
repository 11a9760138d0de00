'use client';

import { History, RotateCcw, Trash2, TriangleAlert } from 'lucide-react';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Confirm } from '../../ui/dialog';
import { Tip } from '../../ui/misc';
import { Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { formatBytes } from '../import/upload';
import { useRollback, useUninstall } from '../queries';
import type { ManagedView, SkillDetailView, VersionInfo } from '../view';
import { VersionDiff } from './version-diff';

const iso = (ms: number) => new Date(ms).toISOString();
const sourceOf = (v: VersionInfo) =>
  v.lock.sourceRef ?? (v.lock.registry ? `ClawHub ${v.lock.ownerHandle ? `@${v.lock.ownerHandle}/` : ''}${v.lock.version}` : '—');

/** Versions of a managed skill: the active one marked, drift, rollback to any stored version, diff, history and uninstall. */
export function VersionsTab({ skill: s, managed: m }: { skill: SkillDetailView; managed: ManagedView }) {
  const can = useCan('skills.write');
  const router = useRouter();
  const rollback = useRollback();
  const uninstall = useUninstall();
  const [target, setTarget] = useState<VersionInfo | null>(null);
  const [removing, setRemoving] = useState(false);
  const versions = [...m.versions].sort((a, b) => b.installedAt - a.installedAt);
  const doRollback = () => {
    const v = target;
    if (!v) return;
    rollback.mutate(
      { slug: m.slug, version: v.version },
      {
        onSuccess: () => {
          setTarget(null);
          toast.success(`${m.slug} is now at ${v.version}`, { description: `Was ${m.active ?? 'unknown'}.` });
        },
        onError: (e) => toast.error(`Could not roll back to ${v.version}`, { description: errorMessage(e) }),
      },
    );
  };
  const doUninstall = () =>
    uninstall.mutate(
      { slug: m.slug },
      {
        onSuccess: () => {
          toast.success(`${m.slug} uninstalled`, { description: `${versions.length} stored version${versions.length === 1 ? '' : 's'} removed.` });
          router.push('/skills');
        },
        onError: (e) => toast.error(`Could not uninstall ${m.slug}`, { description: errorMessage(e) }),
      },
    );
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4">
      {m.drift?.drifted ? (
        <div role="alert" className="flex items-start gap-2 rounded-md border border-warning/50 bg-warning/10 px-3 py-2 text-sm" data-testid="drift-warning">
          <TriangleAlert aria-hidden className="mt-0.5 size-4 shrink-0 text-warning" />
          <span>
            The files of {m.drift.version} changed on disk since it was installed
            {m.drift.changed.length
              ? `: ${m.drift.changed.slice(0, 8).join(', ')}${m.drift.changed.length > 8 ? ` and ${m.drift.changed.length - 8} more` : ''}`
              : ''}
            . Roll back to the same version to restore them, or import again.
          </span>
        </div>
      ) : null}
      <Card>
        <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
          <div className="grid gap-1">
            <CardTitle>Versions of {m.slug}</CardTitle>
            <CardDescription>Every import is kept as an immutable version; rolling back switches which one agents load.</CardDescription>
          </div>
          <Tip content={can.why}>
            <Button variant="outline" size="sm" className="text-destructive" onClick={() => setRemoving(true)} disabled={!can.allowed} data-testid="uninstall">
              <Trash2 aria-hidden /> Uninstall
            </Button>
          </Tip>
        </CardHeader>
        <CardContent>
          <Table aria-label="Versions">
            <THead>
              <TR className="hover:bg-transparent">
                <TH>Version</TH>
                <TH>Installed</TH>
                <TH>Source</TH>
                <TH>Files</TH>
                <TH className="text-right">
                  <span className="sr-only">Actions</span>
                </TH>
              </TR>
            </THead>
            <TBody>
              {versions.map((v) => (
                <TR key={v.version} data-testid="version-row" data-version={v.version} data-active={v.active}>
                  <TD className="font-mono text-sm">
                    <span className="inline-flex items-center gap-2">
                      {v.version}
                      {v.active ? <Badge variant="success">active</Badge> : null}
                      {!v.present ? <Badge variant="destructive">missing on disk</Badge> : null}
                    </span>
                  </TD>
                  <TD className="text-sm">
                    <RelativeTime iso={iso(v.installedAt)} />
                  </TD>
                  <TD className="max-w-72 truncate font-mono text-xs" title={sourceOf(v)}>
                    {sourceOf(v)}
                  </TD>
                  <TD className="text-xs tabular-nums text-muted-foreground">
                    {v.fileCount} · {formatBytes(v.bytes)}
                  </TD>
                  <TD className="text-right">
                    {!v.active ? (
                      <Tip content={can.why ?? (!v.present ? 'This version’s files are gone from the store.' : undefined)}>
                        <Button
                          size="sm"
                          variant="outline"
                          onClick={() => setTarget(v)}
                          disabled={!can.allowed || !v.present || rollback.isPending}
                          aria-label={`Roll back to ${v.version}`}
                          data-testid="rollback"
                        >
                          <RotateCcw aria-hidden /> Roll back
                        </Button>
                      </Tip>
                    ) : null}
                  </TD>
                </TR>
              ))}
            </TBody>
          </Table>
        </CardContent>
      </Card>
      {versions.length > 1 ? <VersionDiff slug={m.slug} versions={versions} active={m.active} /> : null}
      {m.installs.length ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2">
              <History aria-hidden className="size-4 text-muted-foreground" /> Install history
            </CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="grid gap-1.5 text-sm" data-testid="install-history">
              {m.installs.map((r, i) => (
                <li key={`${r.version}:${i}`} className="flex flex-wrap items-center gap-2">
                  <code className="font-mono">{r.version}</code>
                  <Badge variant={r.verdict === 'clean' ? 'success' : r.verdict === 'warn' ? 'warning' : 'destructive'}>{r.verdict}</Badge>
                  <span className="text-muted-foreground">
                    by {r.installedBy} <RelativeTime iso={r.installedAt} />
                  </span>
                  {r.jobId ? (
                    <Link href={`/jobs/${r.jobId}`} className="text-primary hover:underline">
                      job
                    </Link>
                  ) : null}
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      ) : null}
      <Confirm
        open={!!target}
        onOpenChange={(o) => !o && setTarget(null)}
        title={`Roll ${m.slug} back to ${target?.version ?? ''}?`}
        description={
          <>
            Agents load {target?.version} instead of {m.active ?? 'the current version'} from now on. Nothing is deleted: you can switch back to {m.active} at
            any time.
          </>
        }
        confirmLabel={`Roll back to ${target?.version ?? ''}`}
        destructive={false}
        busy={rollback.isPending}
        onConfirm={doRollback}
      />
      <Confirm
        open={removing}
        onOpenChange={setRemoving}
        title={`Uninstall ${s.name}?`}
        description={
          <>
            This removes the managed skill <code className="font-mono">{m.slug}</code> and all {versions.length} stored version
            {versions.length === 1 ? '' : 's'} ({versions.map((v) => v.version).join(', ')}). Rollback will no longer be possible. Its config entry (env values,
            API key) is kept.
          </>
        }
        confirmLabel={`Uninstall ${m.slug}`}
        busy={uninstall.isPending}
        onConfirm={doUninstall}
      />
    </div>
  );
}
