'use client';

import { useQueryClient } from '@tanstack/react-query';
import { Check, ChevronRight, Download, PackageX, SearchX } from 'lucide-react';
import Link from 'next/link';
import { useEffect, useState } from 'react';
import { ApiError } from '../api';
import { Badge } from '../ui/badge';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { EmptyState, RetryableError, Skeleton, Tip } from '../ui/misc';
import { RelativeTime } from '../ui/time';
import { useCan } from '../viewer';
import { RateLimitNote } from './github-status';
import { githubKey, useGithubReleases } from './queries';
import type { GithubOverrides, GithubRelease } from './view';

/** The assetPattern that picks exactly `asset` again in later releases: its version replaced by {version}. */
export function assetPatternFor(asset: string, tag: string): string {
  const version = tag.replace(/^v(?=\d)/i, '');
  if (version && asset.includes(version)) return asset.split(version).join('{version}');
  return asset;
}

function ReleaseItem({ release, busy, onInstall }: { release: GithubRelease; busy: boolean; onInstall: (tag: string, overrides?: GithubOverrides) => void }) {
  const can = useCan('packages.write');
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = release.chosen;
  const asset = picked ?? chosen?.name ?? null;
  const others = release.ranked.filter((r) => r.name !== chosen?.name);
  const pickButton = (name: string) =>
    name === asset ? (
      <Badge variant="success">
        <Check aria-hidden className="size-3" /> selected
      </Badge>
    ) : (
      <Button
        type="button"
        variant="ghost"
        size="sm"
        className="h-6 px-2 text-xs"
        disabled={!can.allowed}
        onClick={() => setPicked(name === chosen?.name ? null : name)}
        aria-label={`Use ${name}`}
      >
        Use this
      </Button>
    );
  return (
    <li data-tag={release.tag} className="grid gap-2 rounded-md border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <span className="font-mono text-sm font-semibold">{release.tag}</span>
        {release.name && release.name !== release.tag ? <span className="text-sm text-muted-foreground">{release.name}</span> : null}
        {release.prerelease ? <Badge variant="warning">Pre-release</Badge> : null}
        <RelativeTime iso={release.publishedAt} className="text-xs text-muted-foreground" />
        <span className="text-xs text-muted-foreground" data-testid="asset-counts">
          {release.matchingAssets} matching / {release.totalAssets} total assets
        </span>
        <Tip content={can.why ?? (!asset ? 'No asset of this release fits this host; pick one below.' : undefined)}>
          <Button
            size="sm"
            className="ml-auto"
            disabled={!can.allowed || busy || !asset}
            onClick={() => onInstall(release.tag, picked ? { assetPattern: assetPatternFor(picked, release.tag) } : undefined)}
            aria-label={`Install ${release.tag}`}
          >
            <Download aria-hidden /> Install {release.tag}
          </Button>
        </Tip>
      </div>
      <p className="text-sm" data-testid="chosen-asset">
        {chosen ? (
          <>
            Chosen for this host: <code className="font-mono text-xs">{chosen.name}</code>{' '}
            <span className="text-xs text-muted-foreground">score {chosen.score}</span>
            {chosen.libc ? <span className="text-xs text-muted-foreground"> · {String(chosen.libc)}</span> : null}
            {!chosen.digest ? <span className="text-xs text-muted-foreground"> · no API digest (a checksum file or first-use hash is used)</span> : null}
          </>
        ) : (
          <span className="text-destructive">No asset fits this host ({release.totalAssets} assets, see why below).</span>
        )}
      </p>
      {picked ? (
        <p className="text-xs">
          Override: <code className="font-mono">{picked}</code>, saved as assetPattern <code className="font-mono">{assetPatternFor(picked, release.tag)}</code>{' '}
          and reused for updates.{' '}
          <button type="button" className="text-primary hover:underline" onClick={() => setPicked(null)}>
            Use the chosen asset
          </button>
        </p>
      ) : null}
      <details className="group text-sm">
        <summary className="inline-flex cursor-pointer items-center gap-1 text-xs font-medium text-primary">
          <ChevronRight aria-hidden className="size-3.5 transition-transform group-open:rotate-90" /> Why this asset
        </summary>
        <div className="mt-2 grid gap-3 text-xs">
          {chosen ? (
            <div className="flex items-start justify-between gap-2">
              <div>
                <p className="font-medium">
                  {chosen.name} <span className="text-muted-foreground">(score {chosen.score})</span>
                </p>
                <ul className="ml-4 list-disc text-muted-foreground">
                  {chosen.reasons.map((r) => (
                    <li key={r}>{r}</li>
                  ))}
                </ul>
              </div>
              {pickButton(chosen.name)}
            </div>
          ) : null}
          {others.length ? (
            <div>
              <p className="font-medium">Other candidates</p>
              <ul aria-label={`Other candidates of ${release.tag}`} className="grid gap-1">
                {others.map((o) => (
                  <li key={o.name} className="flex items-start justify-between gap-2">
                    <span>
                      <code className="font-mono">{o.name}</code>{' '}
                      <span className="text-muted-foreground">
                        score {o.score}: {o.reasons.join('; ')}
                      </span>
                    </span>
                    {pickButton(o.name)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {release.rejected.length ? (
            <div>
              <p className="font-medium">Rejected</p>
              <ul aria-label={`Rejected assets of ${release.tag}`} className="grid gap-1">
                {release.rejected.map((r) => (
                  <li key={r.name} data-rejected={r.name} className="flex items-start justify-between gap-2">
                    <span>
                      <code className="font-mono">{r.name}</code>: <span className="text-destructive">{r.reason}</span>
                    </span>
                    {pickButton(r.name)}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </details>
    </li>
  );
}

/** The releases of a repository with the asset this host would install, why, and an override per release. */
export function ReleasePicker({
  repo,
  onOpenChange,
  busy,
  onInstall,
}: {
  repo: string | null;
  onOpenChange: (o: boolean) => void;
  busy: boolean;
  onInstall: (tag: string, overrides?: GithubOverrides) => void;
}) {
  const q = useGithubReleases(repo);
  const qc = useQueryClient();
  // The listing used the API: the tab's rate-limit line should show what it left.
  const listed = q.dataUpdatedAt;
  useEffect(() => {
    if (listed) void qc.invalidateQueries({ queryKey: githubKey });
  }, [listed, qc]);
  const notFound = q.error instanceof ApiError && q.error.status === 404;
  return (
    <Dialog
      open={!!repo}
      onOpenChange={onOpenChange}
      title={`Releases of ${repo ?? ''}`}
      description="The asset each release would install on this host, and why the others were not chosen."
      className="max-h-[90dvh] max-w-3xl overflow-y-auto"
    >
      {q.isPending ? (
        <div className="grid gap-2" role="status" aria-busy="true" aria-label="Loading releases">
          {[0, 1, 2].map((n) => (
            <Skeleton key={n} className="h-20 w-full" />
          ))}
        </div>
      ) : notFound ? (
        <EmptyState icon={<SearchX />} title="Repository not found (or not allowed)">
          Check the spelling of <code className="font-mono">{repo}</code>. If it exists, its owner may be outside the allowed owners in Settings → GitHub.
        </EmptyState>
      ) : q.error ? (
        <div className="grid gap-2">
          <RetryableError error={q.error} onRetry={() => void q.refetch()} />
          {q.error instanceof ApiError && q.error.status >= 400 && q.error.status < 500 ? null : <GithubUnreachableHint />}
        </div>
      ) : !q.data?.releases.length ? (
        <EmptyState icon={<PackageX />} title="No releases">
          {repo} has no published releases. Drafts are not listed; ask the maintainers to publish one.
        </EmptyState>
      ) : (
        <div className="grid gap-3">
          <p className="text-xs text-muted-foreground">
            This host: {q.data.target.os}/{q.data.target.arch}
            {q.data.target.os === 'linux' ? ` (${q.data.target.libc})` : ''}. <RateLimitNote limits={q.data.rateLimits} />
          </p>
          <ul className="grid gap-2" aria-label="Releases">
            {q.data.releases.map((r) => (
              <ReleaseItem key={r.tag} release={r} busy={busy} onInstall={onInstall} />
            ))}
          </ul>
        </div>
      )}
    </Dialog>
  );
}

/** Shown when GitHub did not answer: where to point Skilldock at another API base or a mirror. */
export function GithubUnreachableHint() {
  return (
    <p className="text-sm text-muted-foreground" data-testid="github-unreachable-hint">
      If GitHub cannot be reached from this host, set the API base (GitHub Enterprise) or a download mirror in{' '}
      <Link href="/settings#github" className="text-primary hover:underline">
        Settings → GitHub
      </Link>
      .
    </p>
  );
}
