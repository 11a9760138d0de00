'use client';

import { Command } from 'cmdk';
import { ArrowUpCircle, Bot, Cable, FileArchive, PackagePlus, Stethoscope } from 'lucide-react';
import { toast } from 'sonner';
import { errorMessage } from '@/components/error-message';
import { useStartJob } from '../jobs/use-start-job';
import { useCan } from '../viewer';

type ItemType = React.ComponentType<React.ComponentProps<typeof Command.Item>>;

/** Hrefs of the pages whose dialog or panel does the work; exported for the e2e and the overview. */
export const ACTION_HREFS = {
  checkUpdates: '/runtime?tab=updates',
  installPackage: '/runtime?tab=packages',
  importSkill: '/skills?import=1',
  newAgent: '/agents?new=1',
  connectGateway: '/gateways?new=1',
} as const;

/** Starts diagnostics from the palette; lives in the palette's root so its toasts outlive the closed dialog. */
export function useRunDiagnostics() {
  const start = useStartJob();
  return () => start.mutate({ kind: 'diagnostics' }, { onError: (e) => toast.error('Could not start diagnostics', { description: errorMessage(e) }) });
}

/**
 * The palette's "Actions" group. Each opens the page or dialog that does the work, or starts the job
 * itself; one the viewer's role may not do is listed disabled with the role it needs.
 */
export function PaletteActions({ onSelect, runDiagnostics, Item }: { onSelect: (href: string) => void; runDiagnostics: () => void; Item: ItemType }) {
  const jobs = useCan('jobs.run');
  const packages = useCan('packages.write');
  const skills = useCan('skills.write');
  const agents = useCan('agents.write');
  const gateways = useCan('gateways.write');
  const actions = [
    { id: 'diagnostics', label: 'Run diagnostics', icon: Stethoscope, can: jobs, run: runDiagnostics },
    { id: 'updates', label: 'Check for updates', icon: ArrowUpCircle, can: packages, run: () => onSelect(ACTION_HREFS.checkUpdates) },
    { id: 'install', label: 'Install a package', icon: PackagePlus, can: packages, run: () => onSelect(ACTION_HREFS.installPackage) },
    { id: 'import', label: 'Import a skill', icon: FileArchive, can: skills, run: () => onSelect(ACTION_HREFS.importSkill) },
    { id: 'agent', label: 'Create an agent', icon: Bot, can: agents, run: () => onSelect(ACTION_HREFS.newAgent) },
    { id: 'gateway', label: 'Connect a gateway', icon: Cable, can: gateways, run: () => onSelect(ACTION_HREFS.connectGateway) },
  ];
  return (
    <Command.Group heading="Actions">
      {actions.map((a) => (
        <Item key={a.id} value={`action ${a.label}`} disabled={!a.can.allowed} onSelect={a.run}>
          <a.icon aria-hidden className="size-4 text-muted-foreground" /> {a.label}
          {a.can.why ? <span className="ml-auto text-xs text-muted-foreground">{a.can.why}</span> : null}
        </Item>
      ))}
    </Command.Group>
  );
}
