'use client';

import { KeyRound } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../ui/badge';
import { exactTime, RelativeTime } from '../ui/time';
import type { GithubOverview, GithubRateLimit } from './view';

/** "API: 42/60 left, resets in 58 minutes" for the core limit (the one release listings and downloads use). */
export function RateLimitNote({ limits }: { limits: GithubRateLimit[] }) {
  const core = limits.find((l) => l.resource === 'core') ?? limits[0];
  if (!core) return <span>Rate limit: not seen yet.</span>;
  const low = core.remaining <= Math.max(1, core.limit / 10);
  return (
    <span data-testid="rate-limit" className={low ? 'text-warning' : undefined} title={`Seen ${exactTime(core.seenAt)}`}>
      Rate limit: {core.remaining.toLocaleString('en')}/{core.limit.toLocaleString('en')} left, resets <RelativeTime iso={core.resetAt} />.
    </span>
  );
}

/** The tab's header line: what this host installs for, the API in use, the rate limit and whether a token is set. */
export function GithubStatusLine({ data }: { data: GithubOverview | undefined }) {
  if (!data) return <p className="h-5 animate-pulse rounded bg-muted" role="status" aria-label="Loading GitHub status" />;
  const t = data.target;
  return (
    <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-muted-foreground" data-testid="github-status">
      <span>
        This host:{' '}
        <span className="font-mono text-foreground">
          {t.os}/{t.arch}
        </span>
        {t.os === 'linux' ? (
          <>
            {' '}
            · libc <span className="font-mono text-foreground">{t.libc}</span>
          </>
        ) : null}
      </span>
      <span className="truncate" title={data.apiBase}>
        API <span className="font-mono">{data.apiBase}</span>
      </span>
      <RateLimitNote limits={data.rateLimits} />
      {data.tokenConfigured ? (
        <Badge variant="success">
          <KeyRound aria-hidden className="size-3" /> token configured
        </Badge>
      ) : (
        <span>
          <Badge variant="secondary">no token</Badge>{' '}
          <Link href="/settings#github" className="text-primary hover:underline">
            add one
          </Link>{' '}
          for 5,000 requests an hour instead of 60
        </span>
      )}
    </p>
  );
}
