'use client';

import { ArrowUpCircle, FlaskConical, History, Trash2, Wrench } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Confirm } from '../ui/dialog';
import { Tip } from '../ui/misc';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../ui/table';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { RollbackDialog } from './github-rollback-dialog';
import { BinariesCell, VerificationBadge } from './github-verification';
import { useGithubChannel, useUpdates } from './queries';
import { JobProgressChip } from './updates-jobs';
import { type GithubPackage, type GithubTarget, isNewerVersion, switchVerb, updateOffer } from './view';

/** Pre-releases on or off for one package's update checks. */
function ChannelToggle({ pkg, disabled, why }: { pkg: GithubPackage; disabled: boolean; why?: string }) {
  const channel = useGithubChannel();
  const on = pkg.channel === 'prerelease';
  return (
    <Tip
      content={
        why ??
        (on
          ? 'Update checks offer pre-releases too. Click to follow stable releases only.'
          : 'Update checks offer stable releases only. Click to include pre-releases.')
      }
    >
      <Button
        variant="ghost"
        size="sm"
        aria-pressed={on}
        aria-label={`Pre-releases for ${pkg.name}`}
        disabled={disabled || channel.isPending}
        onClick={() =>
          channel.mutate(
            { name: pkg.name, channel: on ? 'stable' : 'prerelease' },
            {
              onSuccess: (r) => toast.success(`${pkg.name} follows ${r.channel === 'prerelease' ? 'pre-releases too' : 'stable releases only'}`),
              onError: (e) => toast.error('Could not change the channel', { description: errorMessage(e) }),
            },
          )
        }
      >
        <FlaskConical aria-hidden /> {on ? 'Pre-releases on' : 'Pre-releases off'}
      </Button>
    </Tip>
  );
}

export type GithubRowAction = { action: 'update' | 'uninstall' | 'repair'; pkg: GithubPackage } | { action: 'rollback'; pkg: GithubPackage; version: string };

/** Installed GitHub-release packages: binaries with libc, verification, who installed them, and row actions run as jobs. */
export function GithubTable({
  rows,
  target,
  loading,
  activeFor,
  busy,
  onAction,
}: {
  rows: GithubPackage[];
  target: GithubTarget | undefined;
  loading: boolean;
  activeFor: (name: string, repo: string) => string | undefined;
  /** A request is on its way (its job does not exist yet). */
  busy: boolean;
  onAction: (a: GithubRowAction) => void;
}) {
  const can = useCan('packages.write');
  const [uninstalling, setUninstalling] = useState<GithubPackage | null>(null);
  const [rollingBack, setRollingBack] = useState<GithubPackage | null>(null);
  const updates = useUpdates().data;
  // A kept version newer than the active one means the active one is not the latest, whatever the last check said.
  const upToDate = (p: GithubPackage) =>
    updateOffer(updates, 'github', p.name).state === 'latest' && !p.retained.some((r) => isNewerVersion(r.version, p.version))
      ? `${p.name} ${p.tag} is the latest release of its channel.`
      : undefined;

  return (
    <>
      <Table aria-label="GitHub packages" aria-busy={loading || undefined}>
        <THead>
          <TR className="hover:bg-transparent">
            <TH>Name</TH>
            <TH>Version</TH>
            <TH>Binaries</TH>
            <TH>Verification</TH>
            <TH className="hidden md:table-cell">Installed</TH>
            <TH className="text-right">Actions</TH>
          </TR>
        </THead>
        <TBody>
          {loading ? (
            <SkeletonRows rows={3} cols={6} />
          ) : (
            rows.map((p) => {
              const jobId = activeFor(p.name, p.repo);
              const rowBusy = busy || !!jobId;
              return (
                <TR key={p.name} data-package={p.name} data-tag={p.tag}>
                  <TD className="max-w-64">
                    <span className="block truncate font-mono text-xs font-medium">{p.name}</span>
                    <span className="block truncate text-xs text-muted-foreground" title={p.repo}>
                      {p.repo}
                    </span>
                  </TD>
                  <TD>
                    <div className="flex flex-wrap items-center gap-1.5">
                      <span className="font-mono text-xs" data-testid="github-tag" title={p.assetName}>
                        {p.tag}
                      </span>
                      {p.prerelease ? <Badge variant="warning">Pre-release</Badge> : null}
                      {jobId ? <JobProgressChip id={jobId} label={p.name} /> : null}
                    </div>
                  </TD>
                  <TD>
                    <BinariesCell pkg={p} target={target} />
                  </TD>
                  <TD>
                    <VerificationBadge source={p.checksumSource} sha256={p.sha256} />
                  </TD>
                  <TD className="hidden text-xs md:table-cell">
                    <RelativeTime iso={p.installedAt} />
                    <span className="block max-w-40 truncate text-muted-foreground" title={p.installedBy}>
                      by {p.installedBy}
                    </span>
                  </TD>
                  <TD className="text-right">
                    <div className="inline-flex flex-wrap justify-end gap-1.5">
                      {p.problem ? (
                        <span className="inline-flex max-w-72 items-center gap-1.5 text-left text-xs text-destructive" role="alert">
                          <span className="line-clamp-2" title={p.problem}>
                            {p.problem}
                          </span>
                          <Tip content={can.why}>
                            <Button
                              variant="outline"
                              size="sm"
                              disabled={!can.allowed || rowBusy}
                              onClick={() => onAction({ action: 'repair', pkg: p })}
                              aria-label={`Repair ${p.name}`}
                            >
                              <Wrench aria-hidden /> Repair
                            </Button>
                          </Tip>
                        </span>
                      ) : null}
                      <ChannelToggle pkg={p} disabled={!can.allowed || rowBusy} why={can.why} />
                      <Tip content={can.why ?? upToDate(p)}>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={!can.allowed || rowBusy || !!upToDate(p)}
                          onClick={() => onAction({ action: 'update', pkg: p })}
                          aria-label={`Update ${p.name}`}
                          title={`Update ${p.name} to the latest ${p.channel === 'prerelease' ? 'release or pre-release' : 'release'}`}
                        >
                          <ArrowUpCircle aria-hidden /> Update
                        </Button>
                      </Tip>
                      <Tip content={can.why ?? (!p.retained.length ? 'No other version is kept.' : undefined)}>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={!can.allowed || rowBusy || !p.retained.length}
                          onClick={() => setRollingBack(p)}
                          aria-label={`${switchVerb(p)} ${p.name}`}
                        >
                          <History aria-hidden /> {switchVerb(p)}
                        </Button>
                      </Tip>
                      <Tip content={can.why}>
                        <Button
                          variant="outline"
                          size="sm"
                          disabled={!can.allowed || rowBusy}
                          onClick={() => setUninstalling(p)}
                          aria-label={`Uninstall ${p.name}`}
                          className="text-destructive hover:text-destructive"
                        >
                          <Trash2 aria-hidden /> Uninstall
                        </Button>
                      </Tip>
                    </div>
                  </TD>
                </TR>
              );
            })
          )}
        </TBody>
      </Table>
      <Confirm
        open={!!uninstalling}
        onOpenChange={(o) => !o && setUninstalling(null)}
        title={uninstalling ? `Uninstall ${uninstalling.name}?` : 'Uninstall'}
        description={
          uninstalling ? (
            <div className="grid gap-2">
              <p>
                {uninstalling.name} {uninstalling.tag} and its{' '}
                {uninstalling.retained.length ? `${uninstalling.retained.length} kept ${uninstalling.retained.length === 1 ? 'version' : 'versions'}` : 'files'}{' '}
                are deleted. These programs disappear from PATH:
              </p>
              <ul className="flex flex-wrap gap-1.5">
                {uninstalling.binaries.map((b) => (
                  <li key={b.name}>
                    <code className="rounded bg-muted px-1.5 py-0.5 font-mono text-foreground">{b.name}</code>
                  </li>
                ))}
              </ul>
              <p>Skills that call them will fail until it is installed again.</p>
            </div>
          ) : (
            ''
          )
        }
        confirmLabel="Uninstall"
        busy={busy}
        onConfirm={() => {
          if (uninstalling) onAction({ action: 'uninstall', pkg: uninstalling });
          setUninstalling(null);
        }}
      />
      <RollbackDialog
        key={rollingBack?.name ?? ''}
        pkg={rollingBack}
        busy={busy}
        onOpenChange={(o) => !o && setRollingBack(null)}
        onRollback={(version) => {
          if (rollingBack) onAction({ action: 'rollback', pkg: rollingBack, version });
          setRollingBack(null);
        }}
      />
    </>
  );
}
