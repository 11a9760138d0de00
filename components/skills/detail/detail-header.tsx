'use client';

import { ChevronLeft, ExternalLink, Layers } from 'lucide-react';
import Link from 'next/link';
import { Badge } from '../../ui/badge';
import { buttonVariants } from '../../ui/button';
import { SkillEmoji, SourceChip, StatusChip, VerdictChip } from '../chips';
import { EnableToggle } from '../enable-toggle';
import { type SkillDetailView, skillHref } from '../view';

/** Emoji, name and chips (source, readiness, disabled, verdict), the enable switch, and a note when this is a shadowed copy. */
export function DetailHeader({ skill: s }: { skill: SkillDetailView }) {
  const shownSource = s.copy.source;
  return (
    <div className="mb-6 grid gap-3">
      <Link href="/skills" className="inline-flex w-fit items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
        <ChevronLeft aria-hidden className="size-4" /> Skills
      </Link>
      <div className="flex flex-wrap items-start gap-4">
        <SkillEmoji emoji={s.emoji} className="inline-flex size-12 shrink-0 items-center justify-center rounded-lg bg-muted text-2xl" />
        <div className="grid min-w-0 flex-1 gap-1.5">
          <h1 className="break-words text-2xl font-semibold tracking-tight" data-testid="skill-name">
            {s.name}
          </h1>
          <div className="flex flex-wrap items-center gap-1.5" data-testid="skill-chips">
            <SourceChip source={shownSource} label={s.copy.sourceLabel} />
            <StatusChip status={s.status} reason={s.reasons[0]} />
            {s.eligible ? <Badge variant="success">eligible</Badge> : <Badge variant="warning">not eligible</Badge>}
            {s.disabled ? <Badge variant="secondary">disabled</Badge> : null}
            <VerdictChip verdict={s.verdict} acknowledged={s.acknowledged} counts={s.findingCounts} />
            {s.shadowedCount ? (
              <Badge variant="outline" title="Lower-precedence copies of the same name that this one overrides">
                <Layers aria-hidden className="size-3" /> shadows {s.shadowedCount}
              </Badge>
            ) : null}
            {s.manifest.always ? <Badge variant="outline">always on</Badge> : null}
            {s.disableModelInvocation ? <Badge variant="outline">user-invoked only</Badge> : null}
          </div>
          {s.description ? <p className="max-w-3xl text-sm text-muted-foreground">{s.description}</p> : null}
        </div>
        <div className="flex items-center gap-3">
          {s.homepage && /^https?:\/\//i.test(s.homepage) ? (
            <a href={s.homepage} target="_blank" rel="noopener noreferrer nofollow" className={buttonVariants({ variant: 'outline', size: 'sm' })}>
              <ExternalLink aria-hidden /> Homepage
            </a>
          ) : null}
          <label className="flex items-center gap-2 text-sm">
            <span className="text-muted-foreground">Enabled</span>
            <EnableToggle name={s.name} skillKey={s.skillKey} enabled={!s.disabled} />
          </label>
        </div>
      </div>
      {!s.isWinner ? (
        <p role="note" className="rounded-md border border-warning/40 bg-warning/10 px-3 py-2 text-sm" data-testid="shadowed-copy-note">
          This is a shadowed copy from <strong>{s.copy.sourceLabel}</strong> ({s.copy.dir}); agents load the {s.winner.sourceLabel} copy instead.{' '}
          <Link href={skillHref(s.winner.id)} className="text-primary hover:underline">
            Open the active copy
          </Link>
        </p>
      ) : null}
    </div>
  );
}
