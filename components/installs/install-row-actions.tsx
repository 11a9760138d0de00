'use client';

import { useQueryClient } from '@tanstack/react-query';
import { ArrowUpCircle, Eye, EyeOff, RotateCcw, ScrollText, Square, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import type { InstallOut } from '@/lib/installs/schema';
import { JobLogDrawer } from '../jobs/job-log-drawer';
import { Button } from '../ui/button';
import { Confirm, Dialog, DialogFormActions } from '../ui/dialog';
import { ErrorNote, Tip } from '../ui/misc';
import { useCan } from '../viewer';
import { ver } from './format';
import { NOTES_MAX, NotesField } from './notes-field';
import { invalidateInstalls, usePatchInstall, useRemoveInstall, useRetryInstall, useStopInstall, useUpdateInstall } from './queries';

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
      ? `Retry ${install.skillName} ${ver(install.version)} in ${install.configName}`
      : `Update ${install.skillName} in ${install.configName} to ${install.catalogVersion ? ver(install.catalogVersion) : 'the latest version'}`;
  const description =
    mode === 'retry'
      ? 'Installs this record’s own version again (never a newer catalog version).'
      : `${ver(install.served?.version ?? install.version)} keeps serving agents until the new version is ready.`;
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

type Dialogs = 'retry' | 'update' | 'remove' | 'log';

/** The actions an install row offers in its state; a viewer sees them disabled with the reason. */
export function InstallActions({ install }: { install: InstallOut }) {
  const { allowed, why } = useCan('sandboxes.write');
  const [dialog, setDialog] = useState<Dialogs | null>(null);
  const qc = useQueryClient();
  const stop = useStopInstall();
  const patch = usePatchInstall();
  const remove = useRemoveInstall();
  const target = { id: install.configId, skillKey: install.skillKey };
  const s = install.state;
  const label = `${install.skillName} in ${install.configName}`;
  const enabling = s === 'disabled';
  // In the order shown; `when` is the states (and flags) that offer the action.
  const actions: { key: string; when: boolean; icon: React.ReactNode; text: string; aria: string; busy?: boolean; run: () => void }[] = [
    {
      key: 'stop',
      when: s === 'installing',
      icon: <Square aria-hidden />,
      text: 'Stop',
      aria: `Stop installing ${label}`,
      busy: stop.isPending,
      run: () => stop.mutate(target, { onSuccess: () => toast.success(`Stopped ${label}`), onError: fail(`Could not stop ${label}`) }),
    },
    { key: 'retry', when: s === 'failed', icon: <RotateCcw aria-hidden />, text: 'Retry', aria: `Retry ${label}`, run: () => setDialog('retry') },
    {
      key: 'update',
      when: (s === 'ready' || s === 'failed') && install.updatable,
      icon: <ArrowUpCircle aria-hidden />,
      text: 'Update',
      aria: `Update ${label}`,
      run: () => setDialog('update'),
    },
    {
      key: 'toggle',
      when: s === 'ready' || s === 'disabled',
      icon: enabling ? <Eye aria-hidden /> : <EyeOff aria-hidden />,
      text: enabling ? 'Enable' : 'Disable',
      aria: `${enabling ? 'Enable' : 'Disable'} ${label}`,
      busy: patch.isPending,
      run: () =>
        patch.mutate(
          { ...target, enabled: enabling },
          { onSuccess: () => toast.success(`${enabling ? 'Enabled' : 'Disabled'} ${label}`), onError: fail(`Could not change ${label}`) },
        ),
    },
    {
      key: 'remove',
      when: s === 'ready' || s === 'failed' || s === 'disabled',
      icon: <Trash2 aria-hidden />,
      text: 'Remove',
      aria: `Remove ${label}`,
      run: () => setDialog('remove'),
    },
  ];
  return (
    <div className="flex flex-wrap justify-end gap-1.5">
      {install.jobId ? (
        <Button size="sm" variant="ghost" aria-label={`View the log of ${label}`} onClick={() => setDialog('log')}>
          <ScrollText aria-hidden /> View log
        </Button>
      ) : null}
      {actions
        .filter((a) => a.when)
        .map((a) => (
          <Tip key={a.key} content={why}>
            <Button size="sm" variant="outline" disabled={!allowed || a.busy} aria-label={a.aria} onClick={a.run}>
              {a.icon} {a.text}
            </Button>
          </Tip>
        ))}
      {dialog === 'retry' || dialog === 'update' ? <NotesDialog install={install} mode={dialog} onClose={() => setDialog(null)} /> : null}
      {dialog === 'log' && install.jobId ? (
        <JobLogDrawer
          jobId={install.jobId}
          title={`Install of ${label}`}
          onOpenChange={(o) => !o && setDialog(null)}
          onEnded={() => invalidateInstalls(qc)}
          hint="Closing this panel does not stop the install; use Stop on the row for that."
          testId="install-log"
        />
      ) : null}
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
