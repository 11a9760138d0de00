'use client';

import { CircleX, FileText, TriangleAlert } from 'lucide-react';
import { Badge } from '../../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { CopyButton } from '../../ui/copy-button';
import { EmptyState } from '../../ui/misc';
import type { SkillDetailView } from '../view';
import { SkillMarkdown } from './markdown';

function Fact({ label, children, copy }: { label: string; children: React.ReactNode; copy?: string }) {
  return (
    <div className="grid gap-0.5">
      <dt className="text-xs text-muted-foreground">{label}</dt>
      <dd className="flex min-w-0 items-center gap-1 text-sm">
        <span className="min-w-0 break-words">{children}</span>
        {copy ? <CopyButton value={copy} label={`Copy ${label.toLowerCase()}`} className="size-6 shrink-0 [&_svg]:size-3.5" /> : null}
      </dd>
    </div>
  );
}

/** Parse and validation problems of SKILL.md, each with its line (never dropped silently). */
export function DiagnosticsList({ skill: s, onOpenFile }: { skill: SkillDetailView; onOpenFile: (file: string, line?: number) => void }) {
  if (!s.diagnostics.length) return null;
  return (
    <Card className="border-warning/40" data-testid="skill-diagnostics">
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <TriangleAlert aria-hidden className="size-4 text-warning" />{' '}
          {s.diagnostics.length === 1 ? '1 problem in SKILL.md' : `${s.diagnostics.length} problems in SKILL.md`}
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="grid gap-2">
          {s.diagnostics.map((d, i) => (
            <li key={`${d.code}:${d.line ?? ''}:${i}`} className="grid gap-0.5 text-sm" data-testid="diagnostic" data-severity={d.severity}>
              <span className="flex flex-wrap items-center gap-2">
                {d.severity === 'error' ? (
                  <CircleX aria-label="error" className="size-4 text-destructive" />
                ) : (
                  <TriangleAlert aria-label="warning" className="size-4 text-warning" />
                )}
                <button type="button" className="font-mono text-xs text-primary hover:underline" onClick={() => onOpenFile(d.file, d.line)}>
                  {d.file}
                  {d.line ? `:${d.line}` : ''}
                </button>
                <code className="rounded bg-muted px-1 text-xs">{d.code}</code>
              </span>
              <span>{d.message}</span>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

/** The rendered SKILL.md body beside the skill's facts, with its diagnostics above. */
export function OverviewTab({ skill: s, onOpenFile }: { skill: SkillDetailView; onOpenFile: (file: string, line?: number) => void }) {
  const m = s.manifest;
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[minmax(0,1fr)_20rem]">
      <div className="grid min-w-0 grid-cols-[minmax(0,1fr)] content-start gap-4">
        <DiagnosticsList skill={s} onOpenFile={onOpenFile} />
        <Card>
          <CardHeader>
            <CardTitle>SKILL.md</CardTitle>
            <CardDescription>What the agent reads when it loads the skill (sanitised; remote images are not loaded).</CardDescription>
          </CardHeader>
          <CardContent>
            {m.body.trim() ? (
              <SkillMarkdown source={m.body} onOpenFile={(p) => onOpenFile(p)} />
            ) : (
              <EmptyState icon={<FileText />} title="SKILL.md has no body">
                Only the front matter is there; agents see the description alone.
              </EmptyState>
            )}
          </CardContent>
        </Card>
      </div>
      <Card className="h-fit">
        <CardHeader>
          <CardTitle>Details</CardTitle>
        </CardHeader>
        <CardContent>
          <dl className="grid gap-3">
            <Fact label="Skill key" copy={m.skillKey}>
              <code className="font-mono text-xs">{m.skillKey}</code>
            </Fact>
            <Fact label="Folder" copy={s.copy.dir}>
              <code className="font-mono text-xs">{s.copy.dir}</code>
            </Fact>
            <Fact label="Content hash" copy={s.copy.contentHash}>
              <code className="font-mono text-xs" title={s.copy.contentHash}>
                {s.copy.contentHash.slice(0, 16)}…
              </code>
            </Fact>
            {m.primaryEnv ? (
              <Fact label="API key variable">
                <code className="font-mono text-xs">{m.primaryEnv}</code>
              </Fact>
            ) : null}
            {m.license ? <Fact label="License">{m.license}</Fact> : null}
            {m.compatibility ? <Fact label="Compatibility">{m.compatibility}</Fact> : null}
            <Fact label="Platforms">{m.os.length ? m.os.join(', ') : 'any'}</Fact>
            <Fact label="Invocation">
              {[m.userInvocable ? 'by users (slash command)' : null, m.disableModelInvocation ? null : 'by the model'].filter(Boolean).join(', ') || 'none'}
            </Fact>
            {m.allowedTools.length ? (
              <Fact label="Allowed tools">
                <span className="flex flex-wrap gap-1">
                  {m.allowedTools.map((t) => (
                    <Badge key={t} variant="secondary" className="font-mono">
                      {t}
                    </Badge>
                  ))}
                </span>
              </Fact>
            ) : null}
            {m.metadataKey ? <Fact label="Metadata block">metadata.{m.metadataKey}</Fact> : null}
          </dl>
        </CardContent>
      </Card>
    </div>
  );
}
