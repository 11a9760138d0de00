'use client';

import { Terminal } from 'lucide-react';
import Link from 'next/link';
import { useState } from 'react';
import { Badge } from '../../ui/badge';
import { Button } from '../../ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Field } from '../../ui/input';
import { ErrorNote, Tip } from '../../ui/misc';
import { Textarea } from '../../ui/textarea';
import { useCan } from '../../viewer';
import { instanceHref } from './instance-actions';
import { useExecSandbox } from './queries';
import { SharedSandboxNote } from './shared-note';

/**
 * The argument vector typed in the box: with several lines, each line is one argument as written;
 * one line is split on spaces, where "double" or 'single' quotes keep spaces inside one argument.
 */
export function parseArgv(text: string): string[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1) return lines;
  const out: string[] = [];
  let cur = '';
  let quote: '"' | "'" | null = null;
  let has = false;
  for (const ch of lines[0] ?? '') {
    if (quote) {
      if (ch === quote) quote = null;
      else cur += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      has = true;
    } else if (ch === ' ' || ch === '\t') {
      if (has || cur) out.push(cur);
      cur = '';
      has = false;
    } else cur += ch;
  }
  if (has || cur) out.push(cur);
  return out;
}

/** Admin-only: run one program (no shell) and show its exit code and output. */
export function RunCommand({ id, sharedWith = null }: { id: string; sharedWith?: string | null }) {
  const { allowed, why } = useCan('sandboxes.exec');
  const [text, setText] = useState('');
  const exec = useExecSandbox(id);
  const argv = parseArgv(text);
  const r = exec.data;
  return (
    <Card>
      <CardHeader>
        <CardTitle>Run command</CardTitle>
        <CardDescription>
          No shell: one argument per line, or one line split on spaces with "quotes" keeping spaces together. For pipes or redirects, run a shell yourself (e.g.
          sh, -c, and the script as the third line).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            if (argv.length) exec.mutate({ argv, ...(sharedWith ? { shared: true as const } : {}) });
          }}
        >
          {sharedWith ? <SharedSandboxNote principal={sharedWith} /> : null}
          <Field label="Command" htmlFor={`argv-${id}`} hint={argv.length ? `${argv.length} argument(s): ${JSON.stringify(argv).slice(0, 200)}` : undefined}>
            <Textarea id={`argv-${id}`} rows={3} value={text} disabled={!allowed} onChange={(e) => setText(e.target.value)} placeholder="ls -la /workspace" />
          </Field>
          <div>
            <Tip content={why}>
              <Button type="submit" size="sm" disabled={!allowed || !argv.length || exec.isPending}>
                <Terminal aria-hidden /> {exec.isPending ? 'Running…' : 'Run'}
              </Button>
            </Tip>
          </div>
          {exec.error ? <ErrorNote error={exec.error} /> : null}
          {r ? (
            <div className="grid gap-2 text-xs" data-slot="exec-result">
              <div className="flex flex-wrap gap-2">
                <Badge variant={r.exitCode === 0 ? 'success' : 'destructive'}>exit {r.exitCode}</Badge>
                <span className="text-muted-foreground">{r.durationMs} ms</span>
                {r.timedOut ? <Badge variant="warning">timed out</Badge> : null}
                {r.truncated ? <Badge variant="warning">output truncated</Badge> : null}
              </div>
              {r.recycled ? (
                <p role="status" data-slot="exec-recycled" className="rounded border border-warning/40 bg-warning/10 p-2">
                  This sandbox ran an older skill image, so its config recycled it first: the command ran in a fresh sandbox and this one is gone.{' '}
                  <Link className="underline" href={instanceHref(r.recycled.to)}>
                    Open the new sandbox
                  </Link>
                </p>
              ) : null}
              <pre data-stream="stdout" className="max-h-60 overflow-auto rounded bg-muted p-2 whitespace-pre-wrap">
                {r.stdout || '(no stdout)'}
              </pre>
              {r.stderr ? (
                <pre data-stream="stderr" className="max-h-40 overflow-auto rounded bg-destructive/10 p-2 whitespace-pre-wrap">
                  {r.stderr}
                </pre>
              ) : null}
            </div>
          ) : null}
        </form>
      </CardContent>
    </Card>
  );
}
