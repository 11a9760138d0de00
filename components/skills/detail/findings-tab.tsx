'use client';

import { FileDown, ShieldAlert, ShieldCheck } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { Button, buttonVariants } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Dialog } from '../../ui/dialog';
import { Field } from '../../ui/input';
import { EmptyState, ErrorNote, Tip } from '../../ui/misc';
import { Textarea } from '../../ui/textarea';
import { RelativeTime } from '../../ui/time';
import { useCan } from '../../viewer';
import { VerdictChip } from '../chips';
import { FindingsTable } from '../findings-table';
import { useReason } from '../import/import-retry';
import { useAcknowledge } from '../queries';
import type { SkillDetailView } from '../view';

function AcknowledgeDialog({ skill: s, open, onOpenChange }: { skill: SkillDetailView; open: boolean; onOpenChange: (o: boolean) => void }) {
  const r = useReason();
  const ack = useAcknowledge();
  const critical = s.findingCounts.critical;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={`Acknowledge the findings of ${s.name}`}
      description={`${critical || 'Its'} critical finding${critical === 1 ? '' : 's'} stop agents from loading this skill. Acknowledging unblocks this exact content; any change to its files blocks it again.`}
    >
      <form
        className="grid gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          r.touch();
          if (!r.valid) return;
          ack.mutate(
            { id: s.id, reason: r.reason.trim() },
            {
              onSuccess: () => {
                onOpenChange(false);
                toast.success(`${s.name} acknowledged`, { description: 'Recorded in the audit log; the skill is no longer blocked.' });
              },
            },
          );
        }}
      >
        <Field label="Reason" htmlFor="ack-reason" error={r.error} hint="Why these findings are acceptable; recorded in the audit log with your name.">
          <Textarea id="ack-reason" value={r.reason} onChange={(e) => r.setReason(e.target.value)} rows={3} aria-invalid={!!r.error} autoFocus />
        </Field>
        <ErrorNote error={ack.error} />
        <div className="flex justify-end gap-2">
          <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button type="submit" variant="destructive" disabled={ack.isPending || !r.valid} data-testid="acknowledge-confirm">
            <ShieldAlert aria-hidden /> {ack.isPending ? 'Saving…' : 'Acknowledge'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Scanner findings by severity with file:line (opens the file there), SARIF download and the acknowledgement. */
export function FindingsTab({ skill: s, onOpenFile }: { skill: SkillDetailView; onOpenFile: (file: string, line?: number) => void }) {
  const can = useCan('skills.write');
  const [open, setOpen] = useState(false);
  const blocking = s.scan.verdict === 'critical' || s.scan.verdict === 'error';
  const fc = s.findingCounts;
  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-3">
        <div className="grid gap-1">
          <CardTitle className="flex items-center gap-2">
            Scanner findings <VerdictChip verdict={s.scan.verdict} acknowledged={s.acknowledged} />
          </CardTitle>
          <CardDescription>
            {s.scan.filesScanned} files scanned · {fc.critical} critical, {fc.warn} warnings, {fc.info} info
            {s.scan.error ? ` · the scan did not complete: ${s.scan.error}` : ''}
          </CardDescription>
        </div>
        <div className="flex flex-wrap gap-2">
          <a
            href={`/api/v1/skills/${encodeURIComponent(s.id)}/sarif`}
            download={`${s.name}.sarif.json`}
            className={buttonVariants({ variant: 'outline', size: 'sm' })}
            data-testid="sarif-download"
          >
            <FileDown aria-hidden /> SARIF
          </a>
          {blocking && !s.ack ? (
            <Tip content={can.why}>
              <Button size="sm" variant="destructive" onClick={() => setOpen(true)} disabled={!can.allowed} data-testid="acknowledge">
                <ShieldAlert aria-hidden /> Acknowledge
              </Button>
            </Tip>
          ) : null}
        </div>
      </CardHeader>
      <CardContent className="grid grid-cols-[minmax(0,1fr)] gap-3">
        {s.ack ? (
          <p className="flex items-start gap-2 rounded-md border bg-muted/40 px-3 py-2 text-sm" data-testid="ack-note">
            <ShieldCheck aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
            <span>
              Acknowledged by {s.ack.acknowledgedBy} <RelativeTime iso={s.ack.acknowledgedAt} />: “{s.ack.reason}”
            </span>
          </p>
        ) : blocking ? (
          <p className="rounded-md border border-destructive/40 bg-destructive/10 px-3 py-2 text-sm text-destructive">
            Blocked: agents will not load this skill until the critical findings are fixed or an admin acknowledges them.
          </p>
        ) : null}
        {s.scan.findings.length ? (
          <FindingsTable findings={s.scan.findings} onOpenFile={(f, l) => onOpenFile(f, l)} />
        ) : (
          <EmptyState icon={<ShieldCheck />} title="No findings">
            The scanner checked every file (scripts, SKILL.md, encoded payloads) and found nothing to report.
          </EmptyState>
        )}
      </CardContent>
      {open ? <AcknowledgeDialog skill={s} open onOpenChange={setOpen} /> : null}
    </Card>
  );
}
