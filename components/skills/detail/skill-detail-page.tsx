'use client';

import { SearchX } from 'lucide-react';
import Link from 'next/link';
import { usePathname, useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState } from 'react';
import { SkillAgentsCard } from '../../agents/skill-agents-card';
import { ApiError } from '../../api';
import { SandboxGatingCard } from '../../installs/sandbox-gating-card';
import { SkillInstallsCard } from '../../installs/skill-installs-card';
import { buttonVariants } from '../../ui/button';
import { EmptyState, RetryableError, Skeleton } from '../../ui/misc';
import { TabCount, Tabs, TabsContent, TabsList, TabsTrigger } from '../../ui/tabs';
import { useCan } from '../../viewer';
import { useSkill } from '../queries';
import type { SkillDetailView } from '../view';
import { DepsTab } from './deps-tab';
import { DetailHeader } from './detail-header';
import { EntryEditor } from './entry-editor';
import { FilesTab } from './files-tab';
import { FindingsTab } from './findings-tab';
import { OverviewTab } from './overview-tab';
import { RequirementsTab } from './requirements-tab';
import { ShadowedTab } from './shadowed-tab';
import { VersionsTab } from './versions-tab';

const TAB_IDS = ['overview', 'requirements', 'config', 'files', 'findings', 'deps', 'versions', 'shadowed'] as const;
type TabId = (typeof TAB_IDS)[number];

/** The open tab and file live in the URL (?tab=files&file=scripts/run.py), so a view can be shared. */
function useDetailParams() {
  const params = useSearchParams();
  const pathname = usePathname();
  const read = useCallback(
    (p: URLSearchParams) => ({
      tab: ((TAB_IDS as readonly string[]).includes(p.get('tab') ?? '') ? p.get('tab') : 'overview') as TabId,
      file: p.get('file'),
      line: Number(p.get('line')) || null,
    }),
    [],
  );
  const [state, setState] = useState(() => read(new URLSearchParams(params.toString())));
  const qs = params.toString();
  useEffect(() => setState(read(new URLSearchParams(qs))), [qs, read]);
  const update = useCallback(
    (next: { tab: TabId; file?: string | null; line?: number | null }) => {
      const s = { tab: next.tab, file: next.file ?? null, line: next.line ?? null };
      setState(s);
      const p = new URLSearchParams();
      if (s.tab !== 'overview') p.set('tab', s.tab);
      if (s.tab === 'files' && s.file) p.set('file', s.file);
      if (s.tab === 'files' && s.file && s.line) p.set('line', String(s.line));
      const q = p.toString();
      window.history.replaceState(window.history.state, '', q ? `${pathname}?${q}` : pathname);
    },
    [pathname],
  );
  return [state, update] as const;
}

function Loading() {
  return (
    <div className="grid gap-4" role="status" aria-busy="true" aria-label="Loading the skill">
      <Skeleton className="h-4 w-20" />
      <div className="flex gap-4">
        <Skeleton className="size-12" />
        <div className="grid flex-1 gap-2">
          <Skeleton className="h-7 w-64" />
          <Skeleton className="h-5 w-96" />
        </div>
      </div>
      <Skeleton className="h-9 w-full max-w-2xl" />
      <Skeleton className="h-64 w-full" />
    </div>
  );
}

/** /skills/[id]: one skill with its overview, requirements, config, files, findings, dependencies, versions and shadowed copies. */
export function SkillDetailPage({ id }: { id: string }) {
  const q = useSkill(id);
  const [view, setView] = useDetailParams();
  const canReadAgents = useCan('agents.read').allowed;
  if (q.error && !q.data) {
    if (q.error instanceof ApiError && (q.error.status === 404 || q.error.status === 400)) {
      return (
        <EmptyState
          icon={<SearchX />}
          title="No such skill"
          action={
            <Link href="/skills" className={buttonVariants({ variant: 'outline' })}>
              Back to the skills
            </Link>
          }
        >
          It may have been removed, or its folder moved (a skill’s id comes from where it lives). Find it again in the list.
        </EmptyState>
      );
    }
    return <RetryableError error={q.error} onRetry={() => void q.refetch()} />;
  }
  if (!q.data) return <Loading />;
  const s: SkillDetailView = q.data;
  const openFile = (file: string, line?: number) => setView({ tab: 'files', file, line: line ?? null });
  const tabs: { id: TabId; label: string; count?: number; show: boolean }[] = [
    { id: 'overview', label: 'Overview', show: true, count: s.diagnostics.length || undefined },
    { id: 'requirements', label: 'Requirements', show: true, count: s.reasons.length || undefined },
    { id: 'config', label: 'Config', show: true },
    { id: 'files', label: 'Files', show: true, count: s.files.length },
    { id: 'findings', label: 'Findings', show: true, count: s.scan.findings.length },
    { id: 'deps', label: 'Dependencies', show: true },
    { id: 'versions', label: 'Versions', show: !!s.managed, count: s.managed?.versions.length },
    { id: 'shadowed', label: 'Shadowed copies', show: s.shadowed.length > 0, count: s.shadowed.length },
  ];
  const visible = tabs.filter((t) => t.show);
  const tab = visible.some((t) => t.id === view.tab) ? view.tab : 'overview';
  return (
    <>
      <DetailHeader skill={s} />
      <Tabs value={tab} onValueChange={(v) => setView({ tab: v as TabId, file: view.file })}>
        <TabsList aria-label="Skill sections" className="mb-4">
          {visible.map((t) => (
            <TabsTrigger key={t.id} value={t.id} data-testid={`detail-tab-${t.id}`}>
              {t.label}
              {t.count !== undefined ? (
                <>
                  {' '}
                  <TabCount n={t.count} />
                </>
              ) : null}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="overview" className="grid gap-4">
          <OverviewTab skill={s} onOpenFile={openFile} />
          <SkillInstallsCard skillKey={s.skillKey} skillName={s.name} managed={!!s.managed} />
          <SandboxGatingCard skillId={s.id} />
          {canReadAgents ? <SkillAgentsCard skillName={s.name} /> : null}
        </TabsContent>
        <TabsContent value="requirements">
          <RequirementsTab skill={s} />
        </TabsContent>
        <TabsContent value="config">
          <EntryEditor key={`${s.skillKey}:${s.entry.updatedAt ?? ''}`} skill={s} />
        </TabsContent>
        <TabsContent value="files">
          <FilesTab skill={s} path={view.file} line={view.line} onSelect={(file) => setView({ tab: 'files', file })} />
        </TabsContent>
        <TabsContent value="findings">
          <FindingsTab skill={s} onOpenFile={openFile} />
        </TabsContent>
        <TabsContent value="deps">
          <DepsTab skill={s} />
        </TabsContent>
        {s.managed ? (
          <TabsContent value="versions">
            <VersionsTab skill={s} managed={s.managed} />
          </TabsContent>
        ) : null}
        {s.shadowed.length ? (
          <TabsContent value="shadowed">
            <ShadowedTab skill={s} />
          </TabsContent>
        ) : null}
      </Tabs>
    </>
  );
}
