/** The overview's suggestions, from what the counts say and what the viewer's role may do. */
export interface NextStep {
  href: string;
  title: string;
  detail: string;
}

export function nextSteps(s: { can: (permission: string) => boolean; skills?: number; needsSetup?: number; updates?: number; failed?: number }): NextStep[] {
  const out: NextStep[] = [];
  if (s.can('skills.write') && s.skills === 0)
    out.push({ href: '/skills?import=1', title: 'Import your first skill', detail: 'From a zip, a folder on the server, ClawHub or GitHub.' });
  if (s.needsSetup)
    out.push({
      href: '/skills?status=needs-setup',
      title: s.needsSetup === 1 ? 'Finish setting up 1 skill' : `Finish setting up ${s.needsSetup} skills`,
      detail: 'Install their missing dependencies or fill in their settings.',
    });
  if (s.updates)
    out.push({
      href: '/runtime?tab=updates',
      title: s.updates === 1 ? 'Review 1 package update' : `Review ${s.updates} package updates`,
      detail: 'Update packages one by one, or all at once.',
    });
  if (s.failed) out.push({ href: '/jobs?state=failed', title: 'Look at failed jobs', detail: 'Their logs say what went wrong; most can be retried.' });
  if (s.can('jobs.run')) out.push({ href: '/jobs', title: 'Run diagnostics', detail: 'Checks the runtimes, package managers and tools this instance needs.' });
  if (s.can('users.manage'))
    out.push({ href: '/settings#users', title: 'Invite your team', detail: 'Add users with the role each needs: viewer, operator or admin.' });
  if (s.can('packages.read')) out.push({ href: '/runtime', title: 'Check the runtimes', detail: 'Python, Node and system packages available to skills.' });
  out.push({ href: '/api-docs', title: 'Automate with the API', detail: 'Create an API token in Settings and call the REST API.' });
  return out;
}
