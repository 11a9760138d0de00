import { describe, expect, it } from 'vitest';
import { extractJsImports } from './scan-js';

const specs = (src: string) => extractJsImports(src).map((i) => i.specifier);

describe('extractJsImports on hostile input', () => {
  it('"import " followed by 4,000 spaces is scanned and yields nothing', () => {
    expect(extractJsImports('import ' + ' '.repeat(4000))).toEqual([]);
  });

  it('4,000 repetitions of "import  " and of "export {" yield nothing', () => {
    expect(extractJsImports('import  '.repeat(4000))).toEqual([]);
    expect(extractJsImports('export {'.repeat(4000))).toEqual([]);
    expect(extractJsImports('require('.repeat(4000))).toEqual([]);
  });

  it('a clause after a long run of spaces still resolves', () => {
    expect(extractJsImports('import ' + ' '.repeat(4000) + "x from 'y'")).toEqual([{ specifier: 'y', line: 1 }]);
  });
});

describe('extractJsImports on TS and JSX', () => {
  it('multi-line clauses, type-only forms, JSX and templates', () => {
    const src = [
      'import {',
      '  a,',
      '  b as c,',
      "} from 'multi-line';",
      "import type Def from 'type-default';",
      "import type from 'named-type';",
      "export { type A, type B } from 'types-only';",
      "import Def2, { type T } from 'mixed';",
      'const el = <div className="x">{"require(\'in-a-jsx-string\')"}</div>;',
      "const t = `${require('in-template')}`;",
      'const s = \'import x from "in-a-string"\';',
      'function f<T>(x: T): T { return x; }',
      "obj.require('not-this');",
      "const re = /'/; require('after-regex');",
      'const div = a / b; const q = "x"; // require(\'commented\')',
    ].join('\n');
    expect(specs(src)).toEqual(['multi-line', 'named-type', 'mixed', 'in-template', 'after-regex']);
    expect(extractJsImports(src).find((i) => i.specifier === 'after-regex')?.line).toBe(14);
  });
});
