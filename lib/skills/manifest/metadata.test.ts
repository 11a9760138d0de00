import { describe, expect, it } from 'vitest';
import { parseSkillMd } from './index';

const md = (fm: string) => `---\nname: s\ndescription: d\n${fm}---\nbody\n`;
const parse = (fm: string) => parseSkillMd(md(fm), { dirName: 's' });
const codes = (fm: string) => parse(fm).diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`);

describe('metadata forms', () => {
  it('reads a nested YAML block map', () => {
    const p = parse(
      'metadata:\n  author: me\n  openclaw:\n    always: true\n    emoji: "♊️"\n    os: [darwin, linux]\n    primaryEnv: GEMINI_API_KEY\n    skillKey: gemini\n' +
        '    homepage: https://gemini.example\n    requires:\n      bins:\n        - uv\n      env: [GEMINI_API_KEY]\n      config: [browser.enabled]\n',
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest).toMatchObject({
      metadataKey: 'openclaw',
      always: true,
      emoji: '♊️',
      os: ['darwin', 'linux'],
      primaryEnv: 'GEMINI_API_KEY',
      skillKey: 'gemini',
      homepage: 'https://gemini.example',
      requires: { bins: ['uv'], anyBins: [], env: ['GEMINI_API_KEY'], config: ['browser.enabled'] },
    });
    expect(p.manifest.metadata.author).toBe('me');
  });

  it('reads single-line JSON (a YAML flow map), as OpenClaw writes it', () => {
    const p = parse('metadata: {"openclaw": {"emoji": "🧭", "requires": {"bins": ["rg"]}}}\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest).toMatchObject({ emoji: '🧭', requires: { bins: ['rg'] } });
  });

  it('reads a JSON5 object string (quoted keys optional, trailing commas, comments)', () => {
    const p = parse(`metadata: '{openclaw: {emoji: "🔐", requires: {env: ["OP_TOKEN",],}, /* note */ primaryEnv: "OP_TOKEN"},}'\n`);
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest).toMatchObject({ metadataKey: 'openclaw', emoji: '🔐', primaryEnv: 'OP_TOKEN', requires: { env: ['OP_TOKEN'] } });
    expect(p.manifest.metadata).toEqual({ openclaw: { emoji: '🔐', requires: { env: ['OP_TOKEN'] }, primaryEnv: 'OP_TOKEN' } });
  });

  it('places diagnostics inside a JSON5 string on the metadata line', () => {
    expect(codes(`license: MIT\nmetadata: '{"openclaw": {"requires": {"env": ["1BAD"]}}}'\n`)).toEqual(['error:requires.env-invalid@5']);
  });

  it('a broken JSON5 string or a non-map metadata is an error', () => {
    const broken = parse(`metadata: '{"openclaw": {"emoji": }'\n`);
    expect(broken.diagnostics).toEqual([expect.objectContaining({ code: 'metadata.json5', line: 4, severity: 'error' })]);
    expect(broken.manifest.metadata).toEqual({});
    expect(codes('metadata: 5\n')).toEqual(['error:key.type@4']);
    expect(codes('metadata: [a]\n')).toEqual(['error:key.type@4']);
    expect(codes('metadata: author is me\n')).toEqual(['error:key.type@4']);
  });

  it('no metadata: always eligible defaults', () => {
    const p = parse('');
    expect(p.manifest).toMatchObject({ metadata: {}, always: false, os: [], install: [], skillKey: 's' });
    expect(p.manifest.metadataKey).toBeUndefined();
    expect(parse('metadata:\n  author: me\n').manifest.metadataKey).toBeUndefined();
  });
});

describe('block aliases', () => {
  it.each(['nodmix', 'clawdbot', 'clawdis', 'moltbot'] as const)('accepts metadata.%s', (key) => {
    const p = parse(`metadata:\n  ${key}:\n    emoji: "x"\n    requires: {bins: [jq]}\n`);
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest).toMatchObject({ metadataKey: key, emoji: 'x', requires: { bins: ['jq'] } });
  });

  it('first present wins (openclaw, clawdbot, clawdis, moltbot) and several blocks warn', () => {
    const p = parse('metadata:\n  moltbot: {emoji: m}\n  clawdbot: {emoji: c}\n  openclaw: {emoji: o}\n');
    expect(p.manifest).toMatchObject({ metadataKey: 'openclaw', emoji: 'o' });
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        code: 'metadata.multiple-blocks',
        severity: 'warning',
        line: 6,
        message: expect.stringContaining('"openclaw" and "clawdbot" and "moltbot"'),
      }),
    ]);
    const q = parse('metadata:\n  moltbot: {emoji: m}\n  clawdis: {emoji: c}\n');
    expect(q.manifest).toMatchObject({ metadataKey: 'clawdis', emoji: 'c' });
    expect(q.diagnostics.map((d) => d.code)).toEqual(['metadata.multiple-blocks']);
  });

  it('a Nodmix skill is read exactly like its OpenClaw twin', () => {
    const block =
      '{"requires": {"bins": ["uv"], "anyBins": ["jq", "yq"], "env": ["GEMINI_API_KEY"], "config": ["browser.enabled"]}, "primaryEnv": "GEMINI_API_KEY", "os": ["linux"], "emoji": "x", "install": [{"kind": "uv", "package": "uv-tool", "bins": ["uv"]}]}';
    const claw = parse(`metadata: {"openclaw": ${block}}\n`);
    const nod = parse(`metadata: {"nodmix": ${block}}\n`);
    expect(nod.diagnostics).toEqual([]);
    expect(nod.manifest.metadataKey).toBe('nodmix');
    const { metadata: _a, metadataKey: _b, ...clawFields } = claw.manifest;
    const { metadata: _c, metadataKey: _d, ...nodFields } = nod.manifest;
    expect(nodFields).toEqual(clawFields);
    expect(nodFields.requires.bins).toEqual(['uv']);
  });

  it('the metadataKeys order decides which block is read; blocks left out are not read', () => {
    const fm = 'metadata:\n  openclaw: {emoji: o}\n  nodmix: {emoji: n}\n';
    expect(parseSkillMd(md(fm), { metadataKeys: ['nodmix', 'clawdbot'] }).manifest).toMatchObject({ metadataKey: 'nodmix', emoji: 'n' });
    expect(parseSkillMd(md(fm), { metadataKeys: ['openclaw', 'nodmix'] }).manifest).toMatchObject({ metadataKey: 'openclaw', emoji: 'o' });
    const onlyClaw = parseSkillMd(md('metadata:\n  nodmix: {requires: {bins: [uv]}}\n'), { metadataKeys: ['openclaw', 'clawdbot'] });
    expect(onlyClaw.manifest.metadataKey).toBeUndefined();
    expect(onlyClaw.manifest.requires.bins).toEqual([]);
    expect(onlyClaw.diagnostics).toEqual([]);
  });

  it('a block that is not a map is an error', () => {
    expect(codes('metadata:\n  openclaw: "yes"\n')).toEqual(['error:key.type@5']);
  });
});

describe('block fields', () => {
  it('accepts anyOf for anyBins; both forms at once merge with a warning', () => {
    const p = parse('metadata:\n  openclaw:\n    requires:\n      anyOf: [a, b]\n      config: [x.y]\n');
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest.requires).toEqual({ bins: [], anyBins: ['a', 'b'], env: [], config: ['x.y'] });
    const both = parse('metadata:\n  openclaw:\n    requires:\n      anyBins: [a]\n      anyOf: [b, a]\n');
    expect(both.manifest.requires.anyBins).toEqual(['a', 'b']);
    expect(both.diagnostics.map((d) => `${d.code}@${d.line}`)).toEqual(['requires.duplicate-alias@8']);
  });

  it("reads PulseBot's requires.configs as files that must exist, never as dotted config paths", () => {
    const p = parse(
      'metadata:\n  openclaw:\n    requires:\n      config: [browser.enabled]\n      configs:\n        - ~/.myapp/config.yaml\n        - /etc/app.conf\n',
    );
    expect(p.diagnostics).toEqual([]);
    expect(p.manifest.requires).toEqual({ bins: [], anyBins: [], env: [], config: ['browser.enabled'], files: ['~/.myapp/config.yaml', '/etc/app.conf'] });
    // The blocks only PulseBot reads mean the same.
    expect(parse('metadata:\n  moltbot:\n    requires: {configs: ["~/.x"]}\n').manifest.requires.files).toEqual(['~/.x']);
    // A relative path or a dotted key is not a file PulseBot can find: an error, left out.
    const bad = parse('metadata:\n  openclaw:\n    requires:\n      configs: [x.y, "rel/file"]\n');
    expect(bad.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual(['error:requires.configs-invalid@7', 'error:requires.configs-invalid@7']);
    expect(bad.manifest.requires.files).toBeUndefined();
    expect(bad.manifest.requires.config).toEqual([]);
  });

  it('a nodmix block has no configs key (Nodmix documents only the dotted config): warned and ignored', () => {
    const p = parse('metadata:\n  nodmix:\n    requires: {config: [a.b], configs: ["~/.x"]}\n');
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual(['warning:metadata.key-unknown@6']);
    expect(p.manifest.requires).toEqual({ bins: [], anyBins: [], env: [], config: ['a.b'] });
  });

  it('validates bin and env names, reporting the item line and leaving it out', () => {
    const p = parse(
      'metadata:\n  openclaw:\n    requires:\n      bins:\n        - ok\n        - /usr/bin/evil\n        - "two words"\n' +
        `        - ${'b'.repeat(129)}\n      env:\n        - GOOD_1\n        - 1BAD\n        - "BAD-NAME"\n`,
    );
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual([
      'error:requires.bin-invalid@9',
      'error:requires.bin-invalid@10',
      'error:requires.bin-invalid@11',
      'error:requires.env-invalid@14',
      'error:requires.env-invalid@15',
    ]);
    expect(p.manifest.requires).toMatchObject({ bins: ['ok'], env: ['GOOD_1'] });
    expect(p.diagnostics[0].message).toBe(
      '"/usr/bin/evil" in "metadata.openclaw.requires.bins" is not a program name (no "/", no whitespace, at most 128 characters); it is left out',
    );
  });

  it('primaryEnv must be an env name; config entries dotted paths', () => {
    expect(codes('metadata:\n  openclaw:\n    primaryEnv: "my key"\n')).toEqual(['error:primaryEnv.invalid@6']);
    expect(codes('metadata:\n  openclaw:\n    requires: {config: ["a..b", "ok.path"]}\n')).toEqual(['error:requires.config-invalid@6']);
  });

  it('unknown os values are warnings and dropped; none known is an error', () => {
    const p = parse('metadata:\n  openclaw:\n    os:\n      - linux\n      - freebsd\n');
    expect(p.manifest.os).toEqual(['linux']);
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual(['warning:os.unknown@8']);
    expect(codes('metadata:\n  openclaw:\n    os: [windows]\n')).toEqual(['warning:os.unknown@6', 'error:os.invalid@6']);
  });

  it('wrong types are diagnostics, never silent drops', () => {
    const p = parse(
      'metadata:\n  openclaw:\n    always: "yes"\n    emoji: 5\n    os: darwin\n    requires: [bins]\n    primaryEnv: [A]\n    skillKey: 3\n    install: {kind: brew}\n',
    );
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}@${d.line}`)).toEqual([
      'error:key.type@6',
      'error:key.type@7',
      'warning:key.type@8',
      'error:key.type@9',
      'error:key.type@10',
      'error:key.type@11',
      'error:key.type@12',
    ]);
    expect(p.manifest.os).toEqual(['darwin']);
    expect(p.manifest.skillKey).toBe('s');
    expect(codes('metadata:\n  openclaw:\n    requires: {bins: [rg, 7]}\n')).toEqual(['error:key.type@6']);
  });

  it('a comma string list is read with a warning', () => {
    const p = parse('metadata:\n  openclaw:\n    requires:\n      bins: "jq, curl"\n');
    expect(p.manifest.requires.bins).toEqual(['jq', 'curl']);
    expect(p.diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual(['warning:key.type']);
  });

  it('unknown keys in the block and in requires are warnings', () => {
    expect(codes('metadata:\n  openclaw:\n    emoji: x\n    tags: [a]\n    requires: {bins: [a], files: [b]}\n')).toEqual([
      'warning:metadata.key-unknown@7',
      'warning:metadata.key-unknown@8',
    ]);
  });

  it('the top-level homepage wins over the block one; skillKey defaults to the name', () => {
    const both = parse('homepage: https://top.example\nmetadata: {openclaw: {homepage: "https://block.example"}}\n');
    expect(both.manifest.homepage).toBe('https://top.example');
    expect(parse('metadata: {openclaw: {homepage: "https://block.example"}}\n').manifest.homepage).toBe('https://block.example');
    expect(codes('metadata: {openclaw: {homepage: "file:///etc/passwd"}}\n')).toEqual(['warning:homepage.invalid@4']);
  });
});
