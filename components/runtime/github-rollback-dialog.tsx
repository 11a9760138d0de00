'use client';

import { History } from 'lucide-react';
import { useState } from 'react';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { EmptyState } from '../ui/misc';
import { exactTime, RelativeTime } from '../ui/time';
import { VerificationBadge } from './github-verification';
import { type GithubPackage, isNewerVersion, switchVerb } from './view';

/** Switch a package back to a kept version (smoke-tested first, then the same atomic symlink swap). */
export function RollbackDialog({
  pkg,
  onOpenChange,
  onRollback,
  busy,
}: {
  pkg: GithubPackage | null;
  onOpenChange: (o: boolean) => void;
  onRollback: (version: string) => void;
  busy: boolean;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const retained = pkg?.retained ?? [];
  const selected = retained.find((r) => r.version === chosen) ?? retained[0];
  const verb = pkg && selected && isNewerVersion(selected.version, pkg.version) ? 'Activate' : 'Roll back to';
  const title = pkg ? `${switchVerb(pkg) === 'Activate' ? 'Activate a kept version of' : 'Roll back'} ${pkg.name}` : 'Roll back';
  return (
    <Dialog
      open={!!pkg}
      onOpenChange={(o) => {
        if (!o) setChosen(null);
        onOpenChange(o);
      }}
      title={title}
      description={
        pkg
          ? `Now at ${pkg.tag}. The version you pick is smoke-tested, then ${pkg.binaries.map((b) => b.name).join(', ')} ${pkg.binaries.length === 1 ? 'points' : 'point'} at it again.`
          : undefined
      }
    >
      {!retained.length ? (
        <EmptyState icon={<History />} title="No earlier versions kept">
          Skilldock keeps the versions replaced by updates (Settings → GitHub → Retained versions). Update this package once to have one to go back to.
        </EmptyState>
      ) : (
        <form
          className="grid gap-4"
          onSubmit={(e) => {
            e.preventDefault();
            if (selected) onRollback(selected.version);
          }}
        >
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Kept versions</legend>
            {retained.map((r) => (
              <label
                key={r.version}
                className="flex cursor-pointer items-center gap-3 rounded-md border px-3 py-2 text-sm has-[:checked]:border-primary"
                data-version={r.tag}
              >
                <input
                  type="radio"
                  name="rollback-version"
                  value={r.version}
                  checked={selected?.version === r.version}
                  onChange={() => setChosen(r.version)}
                  className="size-4 accent-primary"
                />
                <span className="font-mono font-medium">{r.tag}</span>
                {pkg && isNewerVersion(r.version, pkg.version) ? <span className="text-xs text-muted-foreground">newer than {pkg.tag}</span> : null}
                <span className="text-xs text-muted-foreground" title={exactTime(r.installedAt)}>
                  installed <RelativeTime iso={r.installedAt} />
                </span>
                <span className="ml-auto">
                  <VerificationBadge source={r.checksumSource} sha256={r.sha256} compact />
                </span>
              </label>
            ))}
          </fieldset>
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy || !selected}>
              <History aria-hidden /> {verb} {selected?.tag}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
