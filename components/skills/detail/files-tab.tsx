'use client';

import { FileCode, FileText } from 'lucide-react';
import { useMemo, useState } from 'react';
import { Card, CardContent } from '../../ui/card';
import { cn } from '../../ui/cn';
import { Input } from '../../ui/input';
import { formatBytes } from '../import/upload';
import type { SkillDetailView } from '../view';
import { FileViewer } from './file-viewer';

const byPath = (a: string, b: string) => {
  // SKILL.md first, then root files, then folders in order.
  if (a === 'SKILL.md') return -1;
  if (b === 'SKILL.md') return 1;
  const da = a.includes('/');
  const db = b.includes('/');
  return da === db ? a.localeCompare(b) : da ? 1 : -1;
};

/** Every file of the skill (size, executable bit) and a viewer for the one chosen; the choice is in the URL. */
export function FilesTab({
  skill: s,
  path,
  line,
  onSelect,
}: {
  skill: SkillDetailView;
  path: string | null;
  line: number | null;
  onSelect: (path: string) => void;
}) {
  const [filter, setFilter] = useState('');
  const files = useMemo(() => [...s.files].sort((a, b) => byPath(a.path, b.path)), [s.files]);
  const shown = filter.trim() ? files.filter((f) => f.path.toLowerCase().includes(filter.trim().toLowerCase())) : files;
  const current = path && files.some((f) => f.path === path) ? path : (files[0]?.path ?? null);
  const meta = files.find((f) => f.path === current);
  const total = files.reduce((n, f) => n + f.size, 0);
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-4 lg:grid-cols-[18rem_minmax(0,1fr)]">
      <Card className="h-fit">
        <CardContent className="grid gap-2 p-3">
          <Input
            type="search"
            value={filter}
            onChange={(e) => setFilter(e.target.value)}
            placeholder="Filter files…"
            aria-label="Filter files"
            className="h-8"
          />
          <p className="px-1 text-xs text-muted-foreground">
            {files.length} files · {formatBytes(total)}
          </p>
          <ul className="grid max-h-[60vh] gap-0.5 overflow-y-auto" aria-label="Files" data-testid="file-list">
            {shown.map((f) => {
              const slash = f.path.lastIndexOf('/');
              const dir = slash >= 0 ? f.path.slice(0, slash + 1) : '';
              const name = f.path.slice(slash + 1);
              const sel = f.path === current;
              const Icon = /\.(md|txt)$/i.test(name) ? FileText : FileCode;
              return (
                <li key={f.path}>
                  <button
                    type="button"
                    aria-current={sel ? 'true' : undefined}
                    onClick={() => onSelect(f.path)}
                    className={cn(
                      'flex w-full items-center gap-2 rounded px-2 py-1 text-left text-sm hover:bg-muted focus-visible:outline-2 focus-visible:outline-ring',
                      sel && 'bg-accent text-accent-foreground',
                    )}
                    data-testid="file-item"
                    data-path={f.path}
                  >
                    <Icon aria-hidden className="size-4 shrink-0 text-muted-foreground" />
                    <span className="min-w-0 flex-1 truncate font-mono text-xs" title={f.path}>
                      <span className="text-muted-foreground">{dir}</span>
                      {name}
                    </span>
                    {f.mode & 0o111 ? (
                      <span className="text-[10px] text-muted-foreground" title="Executable">
                        x
                      </span>
                    ) : null}
                    <span className="shrink-0 text-[11px] tabular-nums text-muted-foreground">{formatBytes(f.size)}</span>
                  </button>
                </li>
              );
            })}
            {!shown.length ? <li className="px-2 py-3 text-sm text-muted-foreground">No file matches.</li> : null}
          </ul>
        </CardContent>
      </Card>
      {current && meta ? (
        <FileViewer skillId={s.copy.id} file={meta} line={path === current ? line : null} flagged={s.scan.findings.filter((f) => f.file === meta.path)} />
      ) : (
        <p className="text-sm text-muted-foreground">This skill has no files.</p>
      )}
    </div>
  );
}
