// The documentation pages the console's Help shows: a fixed list, so a page name from a URL is only
// ever looked up here, never turned into a path. Browser-safe (no imports).

export interface HelpPage {
  /** The page's name in /help/<name>; its file is docs/<name>.md. */
  readonly name: string;
  readonly title: string;
  /** One line for the Help index and the command palette. */
  readonly summary: string;
}

export const HELP_INDEX = 'index';

export const HELP_PAGES: readonly HelpPage[] = [
  { name: 'index', title: 'Overview', summary: 'What Skilldock is, first start, where to read on' },
  { name: 'architecture', title: 'Architecture', summary: "Layers, and where a new capability's files go" },
  { name: 'configuration', title: 'Configuration', summary: 'Every environment variable and its default' },
  { name: 'api', title: 'API', summary: 'Tokens, errors, jobs and event streams; the OpenAPI reference' },
  { name: 'operations', title: 'Operations', summary: 'Several replicas, backups, upgrades, the security model' },
  { name: 'access', title: 'Users, roles and API tokens', summary: 'What each role may do, API tokens, the audit log' },
  { name: 'jobs', title: 'Jobs', summary: 'Long work with progress, live logs, cancel and retry' },
  { name: 'packages', title: 'Runtime and packages', summary: 'pip, npm and system packages, updates, Update All' },
  { name: 'github-releases', title: 'GitHub releases', summary: 'Verified release binaries, atomic swaps, rollback' },
  { name: 'skills', title: 'Skills', summary: 'The catalog, gating, the scanner, imports and versions' },
  { name: 'agents', title: 'Agents', summary: 'Allowlists, effective skills, the gateway API' },
  { name: 'gateways', title: 'Gateways', summary: 'Connect OpenClaw or any AgentSkills client' },
  { name: 'sandboxes', title: 'Sandboxes', summary: 'Docker, E2B and CubeSandbox configs; isolation' },
  { name: 'installs', title: 'Skill installs', summary: 'Skills installed into sandbox images and bundles' },
  { name: 'network', title: 'Network rules', summary: "Sandboxes' egress rules and how they are enforced" },
  { name: 'terminal', title: 'Terminal', summary: 'A browser terminal into a sandbox that survives reconnects' },
  { name: 'exec-policy', title: 'Exec policy', summary: "How agents' shell commands are judged and run" },
  { name: 'testing', title: 'Testing', summary: 'What npm test runs and how' },
  { name: 'benchmarks', title: 'Benchmarks', summary: 'How to run them, and the figures with their provenance' },
];

export function helpPage(name: string): HelpPage | undefined {
  return HELP_PAGES.find((p) => p.name === name);
}

export function helpHref(name: string): string {
  return name === HELP_INDEX ? '/help' : `/help/${name}`;
}

/** A link between docs pages (`skills.md`, `./skills.md#anchor`) as its Help address; any other link unchanged. */
export function helpLink(href: string): string {
  const m = /^(?:\.\/)?([a-z0-9-]+)\.md(#[^\s]*)?$/.exec(href);
  if (!m || !helpPage(m[1]!)) return href;
  return helpHref(m[1]!) + (m[2] ?? '');
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
export function headingSlugger(): (text: string) => string {
  const seen = new Map<string, number>();
  return (text) => {
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    return n ? `${base}-${n}` : base;
  };
}
