'use client';

import { useVirtualizer } from '@tanstack/react-virtual';
import Link from 'next/link';
import { useEffect, useRef, useState } from 'react';
import { allows, type Draft, isChanged, rowOf } from '@/lib/agents/matrix-draft';
import { Switch } from '../ui/switch';
import type { MatrixAgent, MatrixSkill, MatrixView } from './view';

const ROW = 40;
const COL = 36;
const LEFT = 260;
const HEAD = 150;

export interface GridActions {
  toggle: (a: MatrixAgent, skill: string, value: boolean) => void;
  row: (a: MatrixAgent, value: boolean) => void;
  column: (skill: string, value: boolean) => void;
  own: (a: MatrixAgent, own: boolean) => void;
}

/**
 * Agents × skills, both axes virtualised (only the cells in view are in the DOM), with sticky agent
 * and skill headers. Arrow keys move the focus between cells (Home/End along a row), space toggles.
 */
export function MatrixGrid({
  agents,
  skills,
  defaults,
  draft,
  canWrite,
  why,
  act,
}: {
  agents: MatrixAgent[];
  skills: MatrixSkill[];
  defaults: MatrixView['defaults'];
  draft: Draft;
  canWrite: boolean;
  why?: string;
  act: GridActions;
}) {
  const scroller = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({ count: agents.length, getScrollElement: () => scroller.current, estimateSize: () => ROW, overscan: 6 });
  const cols = useVirtualizer({ horizontal: true, count: skills.length, getScrollElement: () => scroller.current, estimateSize: () => COL, overscan: 6 });
  const [focus, setFocus] = useState({ r: 0, c: 0 });
  const wantFocus = useRef(false);
  const width = LEFT + cols.getTotalSize();
  const height = HEAD + rows.getTotalSize();

  useEffect(() => {
    if (!wantFocus.current) return;
    const el = scroller.current?.querySelector<HTMLInputElement>(`[data-cell="${focus.r}:${focus.c}"]`);
    if (el) {
      el.focus({ preventScroll: true });
      wantFocus.current = false;
    }
  });

  const move = (r: number, c: number) => {
    const nr = Math.max(0, Math.min(agents.length - 1, r));
    const nc = Math.max(0, Math.min(skills.length - 1, c));
    setFocus({ r: nr, c: nc });
    wantFocus.current = true;
    rows.scrollToIndex(nr);
    cols.scrollToIndex(nc);
  };
  const onKeyDown = (e: React.KeyboardEvent) => {
    const cell = (e.target as HTMLElement).dataset.cell;
    if (!cell) return;
    const [r, c] = cell.split(':').map(Number);
    const to: Record<string, [number, number]> = {
      ArrowUp: [r - 1, c],
      ArrowDown: [r + 1, c],
      ArrowLeft: [r, c - 1],
      ArrowRight: [r, c + 1],
      Home: [r, 0],
      End: [r, skills.length - 1],
    };
    const t = to[e.key];
    if (!t) return;
    e.preventDefault();
    move(t[0], t[1]);
  };
  const fr = Math.min(focus.r, Math.max(0, agents.length - 1));
  const fc = Math.min(focus.c, Math.max(0, skills.length - 1));
  const vcols = cols.getVirtualItems();

  return (
    <div
      ref={scroller}
      role="grid"
      aria-label="Allowlists: agents by skills"
      aria-rowcount={agents.length + 1}
      aria-colcount={skills.length + 1}
      onKeyDown={onKeyDown}
      className="relative h-[min(70vh,40rem)] overflow-auto rounded-md border bg-background"
      data-testid="matrix-grid"
    >
      <div style={{ width, height }} className="relative">
        <div role="row" tabIndex={-1} aria-rowindex={1} className="sticky top-0 z-20 border-b bg-card" style={{ height: HEAD, width }}>
          <div
            role="columnheader"
            tabIndex={-1}
            className="sticky left-0 z-30 flex h-full items-end border-r bg-card p-2 text-xs text-muted-foreground"
            style={{ width: LEFT }}
          >
            {agents.length} agents × {skills.length} skills
          </div>
          {vcols.map((c) => {
            const s = skills[c.index];
            const all = agents.length > 0 && agents.every((a) => allows(rowOf(draft, a), defaults, s.name));
            return (
              <div
                key={s.name}
                role="columnheader"
                tabIndex={-1}
                aria-colindex={c.index + 2}
                className="absolute top-0 flex h-full flex-col items-center justify-end gap-1 pb-1"
                style={{ left: LEFT + c.start, width: c.size }}
              >
                <span className="max-h-[110px] truncate text-xs [writing-mode:vertical-rl] rotate-180" title={`${s.name} (${s.source}, ${s.status})`}>
                  {s.name}
                </span>
                <button
                  type="button"
                  disabled={!canWrite}
                  title={why ?? (all ? `Untick ${s.name} for every shown agent with its own list` : `Tick ${s.name} for every shown agent with its own list`)}
                  aria-label={`${all ? 'Untick' : 'Tick'} ${s.name} for every shown agent`}
                  onClick={() => act.column(s.name, !all)}
                  className="size-5 rounded border text-[10px] leading-none hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40"
                >
                  {all ? '−' : '+'}
                </button>
              </div>
            );
          })}
        </div>
        {rows.getVirtualItems().map((r) => {
          const a = agents[r.index];
          const row = rowOf(draft, a);
          const changed = isChanged(a, row);
          const all = skills.length > 0 && skills.every((s) => allows(row, defaults, s.name));
          return (
            <div
              key={a.id}
              role="row"
              tabIndex={-1}
              aria-rowindex={r.index + 2}
              className={`absolute left-0 border-b ${changed ? 'bg-primary/5' : ''}`}
              style={{ top: HEAD + r.start, height: r.size, width }}
              data-testid={`matrix-row-${a.id}`}
              data-own={row.own}
              data-changed={changed}
            >
              <div role="rowheader" tabIndex={-1} className="sticky left-0 z-10 flex h-full items-center gap-2 border-r bg-card px-2" style={{ width: LEFT }}>
                <Link href={`/agents/${encodeURIComponent(a.id)}`} className="min-w-0 flex-1 truncate text-sm font-medium hover:underline" title={a.id}>
                  {a.name}
                </Link>
                {!row.own ? (
                  <span className="rounded-full bg-secondary px-1.5 text-[10px] text-secondary-foreground" data-testid="inherits-marker">
                    inherits
                  </span>
                ) : null}
                <Switch
                  checked={row.own}
                  disabled={!canWrite}
                  title={why ?? (row.own ? 'Own list (switch off to inherit the defaults)' : 'Give it its own list')}
                  aria-label={`Own list for ${a.id}`}
                  onCheckedChange={(on) => act.own(a, on)}
                />
                <button
                  type="button"
                  disabled={!canWrite || !row.own}
                  title={why ?? (row.own ? undefined : 'Give it its own list first')}
                  aria-label={`${all ? 'Untick' : 'Tick'} every shown skill for ${a.id}`}
                  onClick={() => act.row(a, !all)}
                  className="size-5 shrink-0 rounded border text-[10px] leading-none hover:bg-accent focus-visible:outline-2 focus-visible:outline-ring disabled:opacity-40"
                >
                  {all ? '−' : '+'}
                </button>
              </div>
              {vcols.map((c) => {
                const s = skills[c.index];
                const on = allows(row, defaults, s.name);
                const editable = canWrite && row.own;
                const focused = r.index === fr && c.index === fc;
                return (
                  <div
                    key={s.name}
                    role="gridcell"
                    tabIndex={-1}
                    aria-colindex={c.index + 2}
                    className="absolute top-0 flex h-full items-center justify-center"
                    style={{ left: LEFT + c.start, width: c.size }}
                  >
                    <input
                      type="checkbox"
                      checked={on}
                      aria-disabled={!editable}
                      aria-label={`${a.id} may use ${s.name}`}
                      title={!canWrite ? why : row.own ? undefined : 'Inherited from the defaults: give the agent its own list to change it'}
                      tabIndex={focused ? 0 : -1}
                      data-cell={`${r.index}:${c.index}`}
                      onFocus={() => setFocus({ r: r.index, c: c.index })}
                      onChange={() => editable && act.toggle(a, s.name, !on)}
                      className={`size-4 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring ${editable ? '' : 'opacity-40'}`}
                    />
                  </div>
                );
              })}
            </div>
          );
        })}
      </div>
    </div>
  );
}
