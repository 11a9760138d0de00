'use client';

import { ArrowUpCircle, Eye, EyeOff, RotateCcw, ScrollText, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { InstallOut } from '@/lib/installs/schema';
import { Button } from '../ui/button';
import { Confirm, Dialog, DialogFormActions } from '../ui/dialog';
import { ErrorNote, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { InstallLogDrawer } from './install-log-drawer';
import { NOTES_MAX, NotesField } from './notes-field';
import { usePatchInstall, useRemoveInstall, useRetryInstall, useStopInstall, useUpdateInstall } from './queries';

const fail = (what: string) => (e: Error) => toast.error(what, { description: e.message });

/** Retry or Update: both take optional notes and start a job. */
function NotesDialog({ install, mode, onClose }: { install: InstallOut; mode: 'retry' | 'update'; onClose: () => void }) {
  const [notes, setNotes] = useState(install.notes ?? '');
  const retry = useRetryInstall();
  const update = useUpdateInstall();
  const op = mode === 'retry' ? retry : update;
  const target = { id: install.configId, skillKey: install.skillKey };
  const title =
    mode === 'retry'
      ? `Retry ${install.skillName} v${install.version} in ${install.configName}`
      : `Update ${install.skillName} in ${install.configName} to v${install.catalogVersion ?? 'latest'}`;
  const description =
    mode === 'retry'
      ? 'Installs this record’s own version again (never a newer catalog version).'
      : `v${install.served?.version ?? install.version} keeps serving agents until the new version is ready.`;
  return (
    <Dialog open onOpenChange={(o) => !o && onClose()} title={title} description={description}>
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          if (notes.length > NOTES_MAX) return;
          op.mutate(
            { ...target, notes },
            {
              onSuccess: (r) => {
                toast.success(r.noop ? 'Nothing to do: this content is already installed' : mode === 'retry' ? 'Retry started' : 'Update started');
                onClose();
              },
            },
          );
        }}
      >
        <NotesField id={`notes-${mode}-${install.id}`} value={notes} onChange={setNotes} />
        {op.error ? <ErrorNote error={op.error} /> : null}
        <DialogFormActions onCancel={onClose} pending={op.isPending} label={mode === 'retry' ? 'Retry install' : 'Update'} pendingLabel="Starting…" />
      </form>
    </Dialog>
  );
}

/** The actions an install row offers in its state; a viewer sees them disabled with the reason. */
export function InstallActions({ install }: { install: InstallOut }) {
  const { allowed, why } = useCan('sandboxes.write');
  const [dialog, setDialog] = useState<'retry' | 'update' | 'remove' | 'log' | null>(null);
  const stop = useStopInstall();
  const patch = usePatchInstall();
  const remove = useRemoveInstall();
  const target = { id: install.configId, skillKey: install.skillKey };
  const s = install.state;
  const label = `${install.skillName} in ${install.configName}`;
  const guarded = (key: string, node: React.ReactElement) => (
    <Tip key={key} content={why}>
      {node}
    </Tip>
  );
  const buttons: React.ReactElement[] = [];
  if (s === 'installing')
    buttons.push(
      guarded(
        'stop',
        <Button
          size="sm"
          variant="outline"
          disabled={!allowed || stop.isPending}
          aria-label={`Stop installing ${label}`}
          onClick={() => stop.mutate(target, { onSuccess: () => toast.success(`Stopped ${label}`), onError: fail(`Could not stop ${label}`) })}
        >
          <Square aria-hidden /> Stop
        </Button>,
      ),
    );
  if (s === 'failed')
    buttons.push(
      guarded(
        'retry',
        <Button size="sm" variant="outline" disabled={!allowed} aria-label={`Retry ${label}`} onClick={() => setDialog('retry')}>
          <RotateCcw aria-hidden /> Retry
        </Button>,
      ),
    );
  if ((s === 'ready' || s === 'failed') && install.updatable)
    buttons.push(
      guarded(
        'update',
        <Button size="sm" variant="outline" disabled={!allowed} aria-label={`Update ${label}`} onClick={() => setDialog('update')}>
          <ArrowUpCircle aria-hidden /> Update
        </Button>,
      ),
    );
  if (s === 'ready' || s === 'disabled') {
    const enabling = s === 'disabled';
    buttons.push(
      guarded(
        'toggle',
        <Button
          size="sm"
          variant="outline"
          disabled={!allowed || patch.isPending}
          aria-label={`${enabling ? 'Enable' : 'Disable'} ${label}`}
          onClick={() =>
            patch.mutate(
              { ...target, enabled: enabling },
              { onSuccess: () => toast.success(`${enabling ? 'Enabled' : 'Disabled'} ${label}`), onError: fail(`Could not change ${label}`) },
            )
          }
        >
          {enabling ? <Eye aria-hidden /> : <EyeOff aria-hidden />} {enabling ? 'Enable' : 'Disable'}
        </Button>,
      ),
    );
  }
  if (s === 'ready' || s === 'failed' || s === 'disabled')
    buttons.push(
      guarded(
        'remove',
        <Button size="sm" variant="outline" disabled={!allowed} aria-label={`Remove ${label}`} onClick={() => setDialog('remove')}>
          <Trash2 aria-hidden /> Remove
        </Button>,
      ),
    );
  return (
    <div className="flex flex-wrap justify-end gap-1.5">
      {install.jobId ? (
        <Button size="sm" variant="ghost" aria-label={`View the log of ${label}`} onClick={() => setDialog('log')}>
          <ScrollText aria-hidden /> View log
        </Button>
      ) : null}
      {buttons}
      {dialog === 'retry' || dialog === 'update' ? <NotesDialog install={install} mode={dialog} onClose={() => setDialog(null)} /> : null}
      {dialog === 'log' && install.jobId ? <InstallLogDrawer jobId={install.jobId} title={`Install of ${label}`} onClose={() => setDialog(null)} /> : null}
      <Confirm
        open={dialog === 'remove'}
        onOpenChange={(o) => !o && setDialog(null)}
        title={`Remove ${install.skillName} from ${install.configName}?`}
        description={
          <>
            The image of <strong>{install.configName}</strong> is rebuilt without {install.skillName}, as a job; agents stop getting it. The catalog copy of the
            skill stays.
          </>
        }
        confirmLabel="Remove and rebuild"
        busy={remove.isPending}
        onConfirm={() => remove.mutate(target, { onSuccess: () => toast.success(`Removing ${label}`), onError: fail(`Could not remove ${label}`) })}
      />
    </div>
  );
}
