// The package sources an install needs when a policy denies by default, to offer allowing them.
import { isDenyAll } from './compile';
import { nameAllowed } from './decide';
import type { CompiledPolicy } from './types';

export interface InstallSource {
  manager: 'pip' | 'npm' | 'apt';
  label: string;
  entries: string[];
}

export const INSTALL_SOURCES: readonly InstallSource[] = [
  { manager: 'pip', label: 'Python packages (PyPI)', entries: ['pypi.org', 'files.pythonhosted.org'] },
  { manager: 'npm', label: 'npm packages (npm registry)', entries: ['registry.npmjs.org'] },
  { manager: 'apt', label: 'System packages (Debian mirrors)', entries: ['deb.debian.org', 'security.debian.org'] },
];

/** The sources whose entries the policy does not allow yet, each with only its missing entries; none under default allow. */
export function missingSources(c: CompiledPolicy): InstallSource[] {
  if (!isDenyAll(c)) return [];
  return INSTALL_SOURCES.map((s) => ({ ...s, entries: s.entries.filter((e) => !nameAllowed(c, e)) })).filter((s) => s.entries.length > 0);
}
