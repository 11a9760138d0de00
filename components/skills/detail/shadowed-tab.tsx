'use client';

import Link from 'next/link';
import { Badge } from '../../ui/badge';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../../ui/card';
import { Table, TBody, TD, TH, THead, TR } from '../../ui/table';
import { SourceChip } from '../chips';
import { type ShadowedCopy, type SkillDetailView, skillHref } from '../view';

function Changes({ c }: { c: ShadowedCopy }) {
  if (c.sameContent) return <Badge variant="success">same content</Badge>;
  const parts = [
    { label: 'added', files: c.changes.added, cls: 'text-success' },
    { label: 'removed', files: c.changes.removed, cls: 'text-destructive' },
    { label: 'modified', files: c.changes.modified, cls: 'text-foreground' },
  ].filter((p) => p.files.length);
  return (
    <div className="grid gap-1 text-xs">
      <Badge variant="warning" className="w-fit">
        differs
      </Badge>
      {parts.map((p) => (
        <span key={p.label} title={p.files.join('\n')}>
          <span className={p.cls}>
            {p.files.length} {p.label}
          </span>
          <span className="text-muted-foreground">
            : {p.files.slice(0, 3).join(', ')}
            {p.files.length > 3 ? ', …' : ''}
          </span>
        </span>
      ))}
    </div>
  );
}

/** Copies of this skill in lower-precedence roots that agents do not load, and how each differs from the active one. */
export function ShadowedTab({ skill: s }: { skill: SkillDetailView }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Shadowed copies</CardTitle>
        <CardDescription>
          Other roots hold a skill named {s.name}. The {s.winner.sourceLabel} copy wins by precedence; these are ignored. Changes are relative to the active
          copy (“added” = only in the shadowed one).
        </CardDescription>
      </CardHeader>
      <CardContent>
        <Table aria-label="Shadowed copies">
          <THead>
            <TR className="hover:bg-transparent">
              <TH>Source</TH>
              <TH>Folder</TH>
              <TH>Content hash</TH>
              <TH>Compared with the active copy</TH>
            </TR>
          </THead>
          <TBody>
            <TR className="bg-success/5" data-testid="winner-row">
              <TD className="align-top">
                <span className="inline-flex items-center gap-2">
                  <SourceChip source={s.winner.source} label={s.winner.sourceLabel} />
                  <Badge variant="success">active</Badge>
                </span>
              </TD>
              <TD className="break-all align-top font-mono text-xs">{s.winner.dir}</TD>
              <TD className="align-top font-mono text-xs" title={s.winner.contentHash}>
                {s.winner.contentHash.slice(0, 12)}…
              </TD>
              <TD className="align-top text-xs text-muted-foreground">—</TD>
            </TR>
            {s.shadowed.map((c) => (
              <TR key={c.id} data-testid="shadowed-row" data-source={c.source}>
                <TD className="align-top">
                  <SourceChip source={c.source} label={c.sourceLabel} />
                </TD>
                <TD className="align-top font-mono text-xs">
                  <Link href={skillHref(c.id)} className="break-all hover:underline">
                    {c.dir}
                  </Link>
                  {!c.valid ? (
                    <Badge variant="destructive" className="ml-2">
                      invalid
                    </Badge>
                  ) : null}
                </TD>
                <TD className="align-top font-mono text-xs" title={c.contentHash}>
                  {c.contentHash.slice(0, 12)}…
                </TD>
                <TD className="align-top">
                  <Changes c={c} />
                </TD>
              </TR>
            ))}
          </TBody>
        </Table>
      </CardContent>
    </Card>
  );
}
