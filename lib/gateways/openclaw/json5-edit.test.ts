import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { applyMergePatch, diffLines, MAX_JSON5_BYTES, mergePatch, parseJson5Located } from './json5-edit';

/** Applies the patch and checks the text still means exactly the merged value. */
function apply(text: string, patch: Record<string, unknown>): string {
  const out = applyMergePatch(text, patch);
  expect(JSON5.parse(out)).toEqual(mergePatch(JSON5.parse(text), patch));
  return out;
}

const CONFIG = `// Gateway config, edited by hand.
{
  /* agents first */
  agents: {
    defaults: {
      skills: ["a"], // default skills
      model: 'claude', /* inline */
    },
  },
  'channels': {
    telegram: { enabled: true },
  },
  meta: { version: 0x1F, ratio: .5, big: Infinity, nope: NaN },
}
`;

describe('applyMergePatch', () => {
  it('changes only the patched value and keeps comments, order and quoting', () => {
    const out = apply(CONFIG, { agents: { defaults: { skills: ['a', 'b'] } } });
    expect(out).toBe(CONFIG.replace('skills: ["a"]', 'skills: ["a", "b"]'));
  });

  it('adds, replaces and deletes nested keys, new keys last in their object in its style', () => {
    const out = apply(CONFIG, {
      agents: { defaults: { model: null, skills: [] }, entries: { 'image-lab': { skills: ['x'] } } },
      channels: { telegram: { enabled: false }, slack: { token: 'a"b' } },
    });
    expect(out).toBe(`// Gateway config, edited by hand.
{
  /* agents first */
  agents: {
    defaults: {
      skills: [], // default skills
    },
    entries: {
      "image-lab": {
        skills: ["x"],
      },
    },
  },
  'channels': {
    telegram: { enabled: false },
    slack: {
      token: "a\\"b",
    },
  },
  meta: { version: 0x1F, ratio: .5, big: Infinity, nope: NaN },
}
`);
  });

  it('deletes a key with its comma, its line and the comment after it, and keeps the comment above it', () => {
    const text = '{\n  // about a\n  a: 1, // a note\n  /* about b */\n  b: 2,\n  c: 3\n}';
    expect(apply(text, { a: null })).toBe('{\n  // about a\n  /* about b */\n  b: 2,\n  c: 3\n}');
    expect(apply(text, { c: null })).toBe('{\n  // about a\n  a: 1, // a note\n  /* about b */\n  b: 2\n}');
    expect(apply(text, { b: null, c: null })).toBe('{\n  // about a\n  a: 1 // a note\n  /* about b */\n}');
    expect(apply(text, { a: null, b: null })).toBe('{\n  // about a\n  /* about b */\n  c: 3\n}');
  });

  it('deletes the last key of an object without leaving a comma problem', () => {
    expect(apply('{ a: 1, b: 2 }', { b: null })).toBe('{ a: 1 }');
    expect(apply('{ a: 1, b: 2, }', { b: null })).toBe('{ a: 1, }');
    expect(apply('{ a: 1, b: 2 }', { a: null })).toBe('{ b: 2 }');
    expect(apply('{\n  x: { only: 1 },\n  y: 2\n}', { x: { only: null } })).toBe('{\n  x: {},\n  y: 2\n}');
    expect(apply('{\n  a: 1,\n  b: 2\n}', { a: null, b: null })).toBe('{}');
    expect(apply('{\n  a: 1, b: 2,\n  c: 3\n}', { b: null, c: null })).toBe('{\n  a: 1\n}');
  });

  it('fills an empty object, also one that holds only a comment', () => {
    expect(apply('{}', { a: 1, b: { c: true } })).toBe('{\n  a: 1,\n  b: {\n    c: true\n  }\n}');
    expect(apply('{\n  skills: {},\n}', { skills: { x: 1 } })).toBe('{\n  skills: {\n    x: 1,\n  },\n}');
    expect(apply('{\n  skills: {\n    // none yet\n  },\n}', { skills: { x: 1 } })).toBe('{\n  skills: {\n    // none yet\n    x: 1,\n  },\n}');
    expect(apply('{ a: { /* none */ } }', { a: { x: [1] } })).toBe('{ a: { /* none */ x: [1] } }');
    expect(apply('{ a: {} }', { a: { x: { y: 1 } } })).toBe('{ a: { x: { y: 1 } } }');
  });

  it('writes identifier keys bare and other keys double-quoted', () => {
    const out = apply('{\n  a: 1\n}', { 'image-lab': 1, $ok_1: 2, '1st': 3, 'with space': 4, ünï: 5, '': 6 });
    expect(out).toBe('{\n  a: 1,\n  "image-lab": 1,\n  $ok_1: 2,\n  "1st": 3,\n  "with space": 4,\n  "ünï": 5,\n  "": 6\n}');
  });

  it('finds keys written with quotes or unicode escapes instead of adding them again', () => {
    const text = `{ 'image-lab': 1, "b\\u0063": 2, \\u0064e: 3 }`;
    expect(apply(text, { 'image-lab': 10, bc: 20, de: 30 })).toBe(`{ 'image-lab': 10, "b\\u0063": 20, \\u0064e: 30 }`);
  });

  it('reads keys with line continuations and escapes, and writes reserved words and __proto__ as plain keys', () => {
    const text = `{ 'multi\\\nline': 1, '\\x41\\'': 0 }`;
    expect(JSON5.parse(text)).toEqual({ multiline: 1, "A'": 0 });
    expect(apply(text, { multiline: 2, "A'": null })).toBe(`{ 'multi\\\nline': 2 }`);
    const out = apply('{}', JSON.parse('{"__proto__": {"x": 1}, "null": 2, "if": 3}'));
    expect(out).toBe('{\n  __proto__: {\n    x: 1\n  },\n  null: 2,\n  if: 3\n}');
    expect(Object.hasOwn(JSON5.parse(out), '__proto__')).toBe(true);
  });

  it('keeps a comment before the top-level brace and text after it', () => {
    const text = '/* header */\n// second\n{ a: 1 } // end\n';
    expect(apply(text, { b: 'x' })).toBe('/* header */\n// second\n{ a: 1, b: "x" } // end\n');
  });

  it('keeps CRLF line ends', () => {
    const text = '// c\r\n{\r\n  a: {\r\n    b: 1,\r\n  },\r\n  c: 2,\r\n}\r\n';
    const out = apply(text, { a: { b: null, d: [1, 2] }, c: null, e: { f: 'g' } });
    expect(out).toBe('// c\r\n{\r\n  a: {\r\n    d: [1, 2],\r\n  },\r\n  e: {\r\n    f: "g",\r\n  },\r\n}\r\n');
    expect(out.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('follows the indent step of the file (tabs, four spaces)', () => {
    expect(apply('{\n\ta: {\n\t\tb: 1\n\t}\n}', { a: { c: { d: 1 } } })).toBe('{\n\ta: {\n\t\tb: 1,\n\t\tc: {\n\t\t\td: 1\n\t\t}\n\t}\n}');
    expect(apply('{\n    a: 1\n}', { b: ['x'.repeat(40), 'y'.repeat(40)] })).toBe(
      `{\n    a: 1,\n    b: [\n        "${'x'.repeat(40)}",\n        "${'y'.repeat(40)}"\n    ]\n}`,
    );
  });

  it('replaces a non-object on the way and a non-object root', () => {
    expect(apply('{ a: 5 }', { a: { b: { c: null, d: 1 } } })).toBe('{ a: { b: { d: 1 } } }');
    expect(apply('// x\n[1, 2]', { a: 1 })).toBe('// x\n{\n  a: 1\n}');
  });

  it('deletes every copy of a duplicate key and patches the copy json5 keeps', () => {
    expect(apply('{ a: 1, b: 0, a: 2 }', { a: 3 })).toBe('{ a: 1, b: 0, a: 3 }');
    expect(apply('{ a: 1, b: 0, a: 2 }', { a: null })).toBe('{ b: 0 }');
  });

  it('writes special numbers and strings that json5 reads back', () => {
    const out = apply('{}', { n: Number.NaN, i: -Infinity, z: -0, s: "it's\n\u2028\\", u: '\ud800' });
    expect(out).toContain('"it\'s\\n\\u2028\\\\"');
  });

  it('leaves the text alone when the patch changes nothing it holds', () => {
    expect(applyMergePatch(CONFIG, { gone: null, skip: undefined })).toBe(CONFIG);
  });
});

describe('mergePatch', () => {
  it('follows the merge-patch examples', () => {
    const cases: [unknown, unknown, unknown][] = [
      [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
      [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
      [{ a: 'b' }, { a: null }, {}],
      [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
      [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
      [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
      [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
      [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
      [
        ['a', 'b'],
        ['c', 'd'],
        ['c', 'd'],
      ],
      [{ a: 'b' }, ['c'], ['c']],
      [{ a: 'foo' }, null, null],
      [{ a: 'foo' }, 'bar', 'bar'],
      [{ e: null }, { a: 1 }, { e: null, a: 1 }],
      [[1, 2], { a: 'b', c: null }, { a: 'b' }],
      [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    ];
    for (const [target, patch, want] of cases) expect(mergePatch(target, patch)).toEqual(want);
  });

  it('treats __proto__ as a plain key and changes neither argument', () => {
    const target = { a: { b: 1 } };
    const patch = JSON.parse('{"__proto__": {"polluted": true}, "a": {"c": 2}}');
    const out = mergePatch(target, patch) as Record<string, unknown>;
    expect(Object.hasOwn(out, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(target).toEqual({ a: { b: 1 } });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('parseJson5Located', () => {
  it('names the line and column of a syntax error and quotes the line', () => {
    const text = '{\n  a: 1,\n  b: @oops,\n}';
    expect(() => parseJson5Located(text)).toThrow(expect.objectContaining({ code: 'invalid_json', details: { line: 3, column: 6 } }));
    expect(() => parseJson5Located(text)).toThrow("The config is not valid JSON5: invalid character '@' at line 3, column 6.");
    expect(() => parseJson5Located('{\r\n  a: 1\r\n')).toThrow(
      expect.objectContaining({ code: 'invalid_json', details: expect.objectContaining({ line: 3 }) }),
    );
  });

  it('never quotes the line itself (a config holds keys and env values)', () => {
    let err: any;
    try {
      parseJson5Located(`{ a: "sk-secret-${'x'.repeat(500)}" ! }`);
    } catch (e) {
      err = e;
    }
    expect(err.code).toBe('invalid_json');
    expect(err.message).not.toContain('sk-secret');
    expect(JSON.stringify(err.details)).not.toContain('sk-secret');
  });

  it('refuses nesting deeper than 64 levels, counting no brackets in strings or comments', () => {
    const nest = (n: number) => '['.repeat(n) + ']'.repeat(n);
    expect(parseJson5Located(`{ a: ${nest(63)} }`).value).toBeTruthy();
    expect(() => parseJson5Located(`{ a: ${nest(64)} }`)).toThrow(expect.objectContaining({ code: 'validation', message: expect.stringContaining('64') }));
    expect(() => parseJson5Located('['.repeat(1_000_000))).toThrow(expect.objectContaining({ code: 'validation' }));
    expect(parseJson5Located(`{ a: "${'['.repeat(100)}", /* ${'{'.repeat(100)} */ b: '[[[' // [[[\n}`).value).toEqual({ a: '['.repeat(100), b: '[[[' });
    expect(() => applyMergePatch('{}', JSON.parse(`${'{"a":'.repeat(70)}1${'}'.repeat(70)}`))).toThrow(expect.objectContaining({ code: 'validation' }));
  });

  it('refuses text over 8 MiB', () => {
    const big = `{ a: "${'x'.repeat(MAX_JSON5_BYTES)}" }`;
    expect(() => parseJson5Located(big)).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
    expect(() => parseJson5Located(`"${'é'.repeat(MAX_JSON5_BYTES / 2)}"`)).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
  });

  it('edits a large file with many members', () => {
    const members = Array.from({ length: 20_000 }, (_, i) => `  k${i}: "${i}", // note ${i}`);
    const text = `{\n${members.join('\n')}\n}\n`;
    const out = apply(text, { k19999: null, k0: 'first', extra: true });
    expect(out.split('\n')).toHaveLength(20_003);
  });
});

describe('diffLines', () => {
  it('lists added and removed lines', () => {
    const changes = diffLines('a\nb\n', 'a\nc\n');
    expect(changes?.filter((c) => c.added || c.removed)).toEqual([
      { added: false, removed: true, value: 'b\n' },
      { added: true, removed: false, value: 'c\n' },
    ]);
  });
});
