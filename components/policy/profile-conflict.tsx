'use client';

import { Button } from '../ui/button';
import { RelativeTime } from '../ui/time';
import type { ProfileView } from './queries';

/** A save refused because someone saved the profile in between: load their version, or save over it. */
export function ConflictNote({
  theirs,
  busy,
  onLoadTheirs,
  onOverwrite,
}: {
  theirs: ProfileView;
  busy: boolean;
  onLoadTheirs: () => void;
  onOverwrite: () => void;
}) {
  return (
    <div role="alert" data-slot="conflict" className="grid gap-2 rounded-md border border-warning/60 bg-warning/15 px-4 py-3 text-sm">
      <p className="font-medium">This profile changed since you opened it.</p>
      <p className="text-muted-foreground">
        {theirs.updatedBy ?? 'Someone'} saved revision {theirs.revision} <RelativeTime iso={theirs.updatedAt} />. Nothing of yours was saved. Load their version
        (your edits here are dropped), or save yours over it.
      </p>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={onLoadTheirs}>
          Load their version
        </Button>
        <Button type="button" size="sm" disabled={busy} onClick={onOverwrite}>
          Save mine over it
        </Button>
      </div>
    </div>
  );
}
