'use client';

import { ShieldAlert, ShieldCheck, TriangleAlert } from 'lucide-react';
import { Badge } from '../ui/badge';
import { CopyButton } from '../ui/copy-button';
import { Tip } from '../ui/misc';
import type { GithubPackage, GithubTarget } from './view';

const SOURCE_TEXT: Record<string, string> = {
  api_digest: 'the digest GitHub publishes for the asset',
  sidecar: 'the asset’s own checksum file',
  checksums_file: 'the release’s checksums file',
  tofu: 'nothing: no checksum was published, so the hash was recorded on first use',
};

/** "Checksum" when a digest or checksum file verified the download, "Unverified (TOFU)" when none existed. */
export function VerificationBadge({ source, sha256, compact }: { source: string; sha256: string; compact?: boolean }) {
  const verified = source !== 'tofu';
  const tip = (
    <span className="grid gap-1">
      <span>Verified against {SOURCE_TEXT[source] ?? source}.</span>
      <span className="break-all font-mono">sha256 {sha256}</span>
    </span>
  );
  return (
    <span className="inline-flex items-center gap-0.5" data-verification={source}>
      <Tip content={tip}>
        {verified ? (
          <Badge variant="success">
            <ShieldCheck aria-hidden className="size-3" /> Checksum
          </Badge>
        ) : (
          <Badge variant="warning">
            <ShieldAlert aria-hidden className="size-3" /> Unverified (TOFU)
          </Badge>
        )}
      </Tip>
      {compact ? null : <CopyButton value={sha256} label="Copy the sha256" className="size-6 [&_svg]:size-3" />}
    </span>
  );
}

/** A glibc binary on a musl host, or a musl one on glibc: shown only when it differs. */
export function libcMismatch(libc: string, target: GithubTarget | undefined): boolean {
  if (target?.os !== 'linux') return false;
  return (libc === 'glibc' && target.libc === 'musl') || (libc === 'musl' && target.libc === 'glibc');
}

/** Each binary with its libc, and a warning icon where it does not match the host. */
export function BinariesCell({ pkg, target }: { pkg: GithubPackage; target: GithubTarget | undefined }) {
  return (
    <ul className="grid gap-0.5">
      {pkg.binaries.map((b) => (
        <li key={b.name} className="flex items-center gap-1.5 text-xs" data-binary={b.name}>
          <span className="font-mono font-medium">{b.name}</span>
          <span className="text-muted-foreground" title={b.interp ? `Loader ${b.interp}` : 'Statically linked'}>
            {b.libc}
          </span>
          {libcMismatch(b.libc, target) ? (
            <Tip
              content={`${b.name} is linked against ${b.libc} but this host uses ${target?.libc}; it may not start. Install a ${target?.libc === 'musl' ? 'musl or static' : 'glibc or static'} asset instead.`}
            >
              <TriangleAlert aria-label={`${b.name}: libc differs from the host`} className="size-3.5 text-warning" />
            </Tip>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
