'use client';

import { useState } from 'react';
import { toast } from 'sonner';
import type { InstallOut } from '@/lib/installs/schema';
import { useSkillList } from '../skills/queries';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Input } from '../ui/input';
import { ErrorNote, Skeleton } from '../ui/misc';
import { NOTES_MAX, NotesField } from './notes-field';
import { isBusy, useBulkInstall } from './queries';

const CATALOG = { status: 'all', q: '', source: 'managed' };

/** Pick catalog skills for one config: one job, one maintenance sandbox, one new snapshot. */
export function BulkInstallDialog({
  configId,
  configName,
  installs,
  onClose,
}: {
  configId: string;
  configName: string;
  installs: InstallOut[];
  onClose: () => void;
}) {
  const list = useSkillList(CATALOG);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [filter, setFilter] = useState('');
  const [notes, setNotes] = useState('');
  const op = useBulkInstall();
  const have = new Map(installs.map((i) => [i.skillKey, i]));
  const f = filter.trim().toLowerCase();
  const skills = (list.data?.skills ?? []).filter((s) => !f || s.name.toLowerCase().includes(f) || s.skillKey.includes(f));
  const toggle = (key: string) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(key)) n.delete(key);
      else n.add(key);
      return n;
    });
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Install skills into ${configName}`}
      description="One job installs every skill you pick into one new snapshot image."
    >
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (!chosen.size || notes.length > NOTES_MAX) return;
          op.mutate(
            { id: configId, skillKeys: [...chosen], notes },
            {
              onSuccess: (r) => {
                if (r.errors.length)
                  toast.warning(`${r.installs.length} started, ${r.errors.length} refused`, {
                    description: r.errors.map((x) => `${x.target}: ${x.message}`).join('\n'),
                  });
                else toast.success(`Installing ${r.installs.length} skill(s) into ${configName}`);
                onClose();
              },
            },
          );
        }}
      >
        <Input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter catalog skills…"
          aria-label="Filter catalog skills"
        />
        <fieldset className="grid max-h-64 gap-1 overflow-y-auto rounded-md border p-2">
          <legend className="sr-only">Catalog skills</legend>
          {list.isPending ? (
            <Skeleton className="h-16 w-full" />
          ) : list.error ? (
            <ErrorNote error={list.error} />
          ) : skills.length === 0 ? (
            <p className="p-2 text-sm text-muted-foreground">
              {f ? 'No catalog skill matches.' : 'The catalog is empty; import a skill on the Skills page first.'}
            </p>
          ) : (
            skills.map((s) => {
              const current = have.get(s.skillKey);
              const disabled = !!current && isBusy(current);
              return (
                <label
                  key={s.id}
                  className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm hover:bg-muted/50 has-[:disabled]:cursor-not-allowed has-[:disabled]:opacity-60"
                >
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={chosen.has(s.skillKey)}
                    disabled={disabled}
                    onChange={() => toggle(s.skillKey)}
                  />
                  <span className="min-w-0 flex-1 truncate">{s.name}</span>
                  <span className="text-xs text-muted-foreground">{current ? `${current.state} v${current.version}` : ''}</span>
                </label>
              );
            })
          )}
        </fieldset>
        <NotesField id={`notes-bulk-${configId}`} value={notes} onChange={setNotes} />
        {op.error ? <ErrorNote error={op.error} /> : null}
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={op.isPending || !chosen.size}>
            {op.isPending ? 'Starting…' : chosen.size ? `Install ${chosen.size} skill${chosen.size === 1 ? '' : 's'}` : 'Choose skills'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
