'use client';

import type { Evaluation, TreeNode } from '@/lib/policy/types';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '../ui/card';
import { cn } from '../ui/cn';
import { DecisionChip, RuleCode } from './decision-badge';
import { ParseTree } from './parse-tree';
import { SegmentsTable } from './segments-table';
import { DECISION_PANEL } from './view';

/** The decision, prominently: its colour, the deciding rule, the segment it came from and the reason. */
export function DecisionBanner({ evaluation, stale }: { evaluation: Evaluation; stale?: boolean }) {
  return (
    <section
      aria-label="Decision"
      aria-live="polite"
      data-decision={evaluation.decision}
      data-rule={evaluation.rule}
      className={cn('grid gap-2 rounded-lg border-2 p-4 transition-opacity', DECISION_PANEL[evaluation.decision], stale && 'opacity-60')}
    >
      <div className="flex flex-wrap items-center gap-3">
        <DecisionChip decision={evaluation.decision} />
        <span className="text-sm">by rule</span>
        <RuleCode rule={evaluation.rule} />
      </div>
      <p className="text-sm">{evaluation.reason}</p>
      {evaluation.segment ? (
        <p className="text-xs">
          Deciding segment: <code className="break-all rounded bg-background/70 px-1 font-mono">{evaluation.segment}</code>
        </p>
      ) : null}
    </section>
  );
}

/** Banner, segments table and the foldable parse tree of one evaluation. */
export function EvaluationView({ evaluation, tree, stale }: { evaluation: Evaluation; tree?: TreeNode | null; stale?: boolean }) {
  return (
    <div className="grid gap-4">
      <DecisionBanner evaluation={evaluation} stale={stale} />
      <Card>
        <CardHeader>
          <CardTitle>Segments</CardTitle>
          <CardDescription>Each simple command after splitting on ; | && || &amp; and newlines, unwrapping wrappers and resolving quotes.</CardDescription>
        </CardHeader>
        <CardContent>
          <SegmentsTable segments={evaluation.segments} deciding={evaluation.segment} />
        </CardContent>
      </Card>
      {tree ? (
        <details className="group rounded-lg border bg-card">
          <summary className="cursor-pointer select-none rounded-lg px-5 py-3 text-base font-semibold focus-visible:outline-2 focus-visible:outline-ring">
            Parse tree
            <span className="ml-2 text-sm font-normal text-muted-foreground">tree-sitter-bash nodes the decision was made from</span>
          </summary>
          <div className="border-t p-4">
            <ParseTree tree={tree} />
          </div>
        </details>
      ) : null}
    </div>
  );
}
