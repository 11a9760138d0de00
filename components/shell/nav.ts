import {
  Activity,
  BookOpen,
  Bot,
  Boxes,
  Cable,
  CircleHelp,
  LayoutDashboard,
  Package,
  Puzzle,
  ScrollText,
  Settings,
  ShieldCheck,
  SquareTerminal,
} from 'lucide-react';

/** The console's sections. Later features add theirs here; only working sections are listed. */
export const NAV = [
  { href: '/overview', label: 'Overview', icon: LayoutDashboard, permission: 'instance.read', description: 'Counts at a glance and next steps' },
  { href: '/runtime', label: 'Runtime & Packages', icon: Package, permission: 'packages.read', description: 'Runtimes, pip/npm/system packages' },
  { href: '/skills', label: 'Skills', icon: Puzzle, permission: 'skills.read', description: 'Skill catalog, imports, findings, versions' },
  { href: '/sandboxes', label: 'Sandboxes', icon: Boxes, permission: 'sandboxes.read', description: 'Sandbox configs, limits, env vars and credentials' },
  {
    href: '/sandboxes/terminals',
    label: 'Terminals',
    icon: SquareTerminal,
    permission: 'terminals.manage',
    description: 'Open terminal sessions, closing them, recorded transcripts',
  },
  { href: '/policy', label: 'Exec policy', icon: ShieldCheck, permission: 'policy.read', description: 'Risk profiles, tester, approvals, exec log' },
  { href: '/agents', label: 'Agents', icon: Bot, permission: 'agents.read', description: 'Per-agent skill allowlists, effective skills, prompt cost' },
  { href: '/gateways', label: 'Gateways', icon: Cable, permission: 'gateways.read', description: 'Connected agent gateways, drift and syncs' },
  { href: '/jobs', label: 'Jobs', icon: Activity, permission: 'jobs.read', description: 'Long-running work with live logs' },
  { href: '/audit', label: 'Audit log', icon: ScrollText, permission: 'audit.read', description: 'Who changed what, and when' },
  { href: '/settings', label: 'Settings', icon: Settings, permission: 'instance.read', description: 'Instance, users and API tokens' },
  { href: '/api-docs', label: 'API', icon: BookOpen, permission: 'instance.read', description: 'REST API reference (OpenAPI 3.1)' },
  { href: '/help', label: 'Help', icon: CircleHelp, permission: 'instance.read', description: 'How Skilldock works: the documentation' },
] as const;
