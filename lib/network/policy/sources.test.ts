import { describe, expect, it } from 'vitest';
import { compilePolicy } from './compile';
import { INSTALL_SOURCES, missingSources } from './sources';
import { OPEN_POLICY } from './types';

describe('install sources', () => {
  it('lists pip, npm and apt', () => {
    expect(INSTALL_SOURCES.map((s) => [s.manager, s.entries])).toEqual([
      ['pip', ['pypi.org', 'files.pythonhosted.org']],
      ['npm', ['registry.npmjs.org']],
      ['apt', ['deb.debian.org', 'security.debian.org']],
    ]);
  });

  it('needs nothing under default allow', () => {
    expect(missingSources(compilePolicy(OPEN_POLICY))).toEqual([]);
  });

  it('lists what deny-by-default does not allow yet, entry by entry', () => {
    const c = compilePolicy({ ...OPEN_POLICY, denyEgressByDefault: true, allowOut: ['pypi.org', '*.npmjs.org', '*.debian.org'] });
    expect(missingSources(c)).toEqual([{ manager: 'pip', label: 'Python packages (PyPI)', entries: ['files.pythonhosted.org'] }]);
  });
});
