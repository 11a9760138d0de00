'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import type { InstallOut } from '@/lib/installs/schema';
import { useSandboxConfigs } from '../sandboxes/queries';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { ErrorNote, Skeleton } from '../ui/misc';
import { NOTES_MAX, NotesField } from './notes-field';
import { useInstallIntoConfigs } from './queries';

/** Pick sandbox configs for one catalog skill: one parent job installs it into all of them. */
export function InstallIntoDialog({
  skillKey,
  skillName,
  installs,
  onClose,
}: {
  skillKey: string;
  skillName: string;
  installs: InstallOut[];
  onClose: () => void;
}) {
  const configs = useSandboxConfigs();
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [notes, setNotes] = useState('');
  const op = useInstallIntoConfigs();
  const busy = new Set(installs.filter((i) => i.state === 'installing' || i.state === 'removing').map((i) => i.configId));
  const have = new Map(installs.map((i) => [i.configId, i]));
  const toggle = (id: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Install ${skillName} into…`}
      description="One job installs it into every config you pick; each config gets a new snapshot image."
    >
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen.size || notes.length > NOTES_MAX) return;
          op.mutate(
            { skillKey, configIds: [...chosen], notes },
            {
              onSuccess: (r) => {
                if (r.errors.length)
                  toast.warning(`${r.installs.length} started, ${r.errors.length} refused`, {
                    description: r.errors.map((x) => `${x.target}: ${x.message}`).join('\n'),
                  });
                else toast.success(`Installing ${skillName} into ${r.installs.length} config(s)`);
                onClose();
              },
            },
          );
        }}
      >
        <fieldset className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2">
          <legend className="sr-only">Sandbox configs</legend>
          {configs.isPending ? (
            <Skeleton className="h-16 w-full" />
          ) : configs.error ? (
            <ErrorNote error={configs.error} />
          ) : configs.data.items.length === 0 ? (
            <p className="p-2 text-sm text-muted-foreground">There are no sandbox configs yet; create one on the Sandboxes page.</p>
          ) : (
            configs.data.items.map((c) => {
              const current = have.get(c.id);
              const disabled = busy.has(c.id);
              return (
                <label
                  key={c.id}
                  className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
                >
                  <input type="checkbox" className="size-4 accent-primary" checked={chosen.has(c.id)} disabled={disabled} onChange={() => toggle(c.id)} />
                  <span className="min-w-0 flex-1 truncate">{c.name}</span>
                  <span className="text-xs text-muted-foreground">
                    {disabled ? `${current?.state} now` : current ? `${current.state} v${current.version}` : c.enabled ? '' : 'config disabled'}
                  </span>
                </label>
              );
            })
          )}
        </fieldset>
        <NotesField id={`notes-into-${skillKey}`} value={notes} onChange={setNotes} />
        {op.error ? <ErrorNote error={op.error} /> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={op.isPending || !chosen.size}>
            {op.isPending ? 'Starting…' : chosen.size ? `Install into ${chosen.size} config${chosen.size === 1 ? '' : 's'}` : 'Choose configs'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
