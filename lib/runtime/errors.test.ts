/** Package manager output → error class: apk's "unsatisfiable constraints" is a conflict only when something requires the package. */
import { describe, expect, it } from 'vitest';
import { classifyPackageError } from './errors';

describe('classifyPackageError (apk)', () => {
  it('tells a missing package from a dependency conflict, and reads a long output in one pass', () => {
    expect(classifyPackageError('apk', 'ERROR: unsatisfiable constraints:\n  nosuch (no such package):\n    required by: world[nosuch]\n')).toBe('conflict');
    expect(classifyPackageError('apk', 'ERROR: unsatisfiable constraints:\n  foo-1.0:\n    breaks: world[foo<1]\n')).toBe('conflict');
    expect(classifyPackageError('apk', 'ERROR: unsatisfiable constraints:\n  nosuch (no such package)\n')).toBe('not_found');
    expect(classifyPackageError('apk', 'required by: x\nERROR: Unsatisfiable constraints\n')).toBe('not_found');
    expect(classifyPackageError('apk', `${'unsatisfiable constraints '.repeat(40_000)}required by`)).toBe('conflict');
  });
});
