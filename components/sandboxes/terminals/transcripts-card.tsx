'use client';

import { useQuery } from '@tanstack/react-query';
import { Download, FileText, Trash2 } from 'lucide-react';
import Link from 'next/link';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { terminalsApi } from '@/lib/api/contracts/terminals';
import { get } from '../../api';
import { ConfirmRow } from '../../lists/confirm-row';
import { terminalSettingsKey } from '../../settings/terminal-settings-form';
import { formatBytes } from '../../skills/import/upload';
import { Badge } from '../../ui/badge';
import { Button, buttonVariants } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { EmptyState, RetryableError } from '../../ui/misc';
import { SkeletonRows, Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { RelativeTime } from '../../ui/time';
import { instanceHref } from '../instances/instance-actions';
import { useSandboxConfigs } from '../queries';
import { sandboxLabel } from './format';
import { type Transcript, transcriptUrl, useDeleteTranscript, useTranscripts } from './queries';

function RecordingNote() {
  const settings = useQuery({ queryKey: terminalSettingsKey, queryFn: ({ signal }) => get(terminalsApi.terminalSettings, { signal }) });
  if (!settings.data) return null;
  const { recordTranscripts, transcriptRetentionDays: days } = settings.data;
  return (
    <span>
      {recordTranscripts ? `Recording is on; transcripts are kept ${days} day${days === 1 ? '' : 's'}.` : 'Recording is off: new terminals are not recorded.'}{' '}
      <Link className="underline underline-offset-2" href="/settings#terminal">
        Terminal settings
      </Link>
    </span>
  );
}

/** The recorded transcripts (asciicast v2) with download and delete. */
export function TranscriptsCard() {
  const list = useTranscripts(true);
  const configs = useSandboxConfigs();
  const names = useMemo(() => new Map((configs.data?.items ?? []).map((c) => [c.id, c.name])), [configs.data]);
  const [deleting, setDeleting] = useState<Transcript | null>(null);
  const remove = useDeleteTranscript();
  const items = list.data?.items ?? [];
  const confirmDelete = (t: Transcript) => {
    remove.mutate(t.id, {
      onSuccess: () => {
        toast.success('Transcript deleted');
        setDeleting(null);
      },
      onError: (e) => toast.error('Could not delete the transcript', { description: e.message }),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle>Transcripts</CardTitle>
        <CardDescription>
          Every keystroke and all output of recorded terminals, in asciicast v2 (play with <code>asciinema play</code>). <RecordingNote />
        </CardDescription>
      </CardHeader>
      <CardContent>
        {list.error ? (
          <RetryableError error={list.error} onRetry={() => void list.refetch()} />
        ) : !list.isPending && items.length === 0 ? (
          <EmptyState icon={<FileText />} title="No transcripts">
            With recording on in the terminal settings, each new terminal is recorded and listed here.
          </EmptyState>
        ) : (
          <Table aria-label="Terminal transcripts">
            <THead>
              <TR>
                <TH>User</TH>
                <TH>Sandbox</TH>
                <TH>Started</TH>
                <TH>Ended</TH>
                <TH className="text-right">Size</TH>
                <TH className="text-right">Actions</TH>
              </TR>
            </THead>
            <TBody>
              {list.isPending ? (
                <SkeletonRows rows={2} cols={6} />
              ) : (
                items.map((t) => (
                  <TR key={t.id} data-transcript={t.id}>
                    <TD className="max-w-56 truncate">{t.user}</TD>
                    <TD>
                      {t.sandboxId ? (
                        <Link className="underline-offset-2 hover:underline" href={instanceHref(t.sandboxId)} title={t.sandboxId}>
                          {sandboxLabel(t.sandboxId, names)}
                        </Link>
                      ) : (
                        '—'
                      )}
                    </TD>
                    <TD>
                      <RelativeTime iso={t.startedAt} />
                    </TD>
                    <TD>
                      {t.endedAt ? (
                        <span className="flex flex-wrap items-center gap-1">
                          <RelativeTime iso={t.endedAt} />
                          {t.reason ? <Badge variant="outline">{t.reason}</Badge> : null}
                        </span>
                      ) : (
                        <Badge variant="secondary" title="Still open, or cut short by a restart of Skilldock">
                          no end recorded
                        </Badge>
                      )}
                      {t.truncated ? (
                        <Badge variant="warning" className="ml-1">
                          truncated
                        </Badge>
                      ) : null}
                    </TD>
                    <TD className="whitespace-nowrap text-right tabular-nums">{formatBytes(t.bytes)}</TD>
                    <TD>
                      <div className="flex justify-end gap-1">
                        <a
                          className={buttonVariants({ size: 'sm', variant: 'outline' })}
                          href={transcriptUrl(t.id)}
                          download={`terminal-${t.id}.cast`}
                          aria-label={`Download ${t.user}’s transcript`}
                        >
                          <Download aria-hidden /> Download
                        </a>
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={remove.isPending}
                          onClick={() => setDeleting(t)}
                          aria-label={`Delete ${t.user}’s transcript`}
                        >
                          <Trash2 aria-hidden /> Delete
                        </Button>
                      </div>
                    </TD>
                  </TR>
                ))
              )}
            </TBody>
          </Table>
        )}
      </CardContent>
      <ConfirmRow
        row={deleting}
        onClose={() => setDeleting(null)}
        title="Delete this transcript?"
        describe={(t) => (
          <>
            {t.user}’s recorded terminal in {sandboxLabel(t.sandboxId, names)} is deleted for good; it cannot be downloaded again.
          </>
        )}
        confirmLabel="Delete transcript"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Card>
  );
}
