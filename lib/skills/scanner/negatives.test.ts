/** Ordinary skill content that must NOT be flagged (false positives block real installs). */
import { describe, expect, it } from 'vitest';
import { scanSkill } from './index';

const md = (body: string) => `---\nname: demo\ndescription: demo skill\n---\n\n${body}\n`;
const PNG_DATA_URI = `data:image/png;base64,${Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), Buffer.alloc(120, 7)]).toString('base64')}`;

const CLEAN: { name: string; file: string; content: string }[] = [
  { name: 'plain ls in a script', file: 'scripts/list.sh', content: '#!/bin/sh\nls -la\n' },
  { name: 'plain ls in a bash block', file: 'SKILL.md', content: md('```bash\nls -la\n```') },
  {
    name: 'curl -o without a pipe (prose)',
    file: 'SKILL.md',
    content: md('Download with `curl -fsSL -o tool.tar.gz https://example.com/tool.tar.gz` and extract it.'),
  },
  {
    name: 'curl -o without a pipe (script)',
    file: 'scripts/get.sh',
    content: 'curl -fsSL -o tool.tar.gz https://example.com/tool.tar.gz\ntar xzf tool.tar.gz\n',
  },
  { name: 'curl piped to jq', file: 'SKILL.md', content: md('```bash\ncurl -s https://api.example.com/items | jq .\n```') },
  { name: 'shell completion list with |bash|', file: 'SKILL.md', content: md('Shell completion: `ant @completion {zsh|bash|fish|powershell}`.') },
  { name: 'pip install in docs', file: 'SKILL.md', content: md('Install the client:\n\n```bash\npip install requests\nnpm install -g some-cli\n```') },
  { name: 'base64 image data URI', file: 'SKILL.md', content: md(`![logo](${PNG_DATA_URI})`) },
  {
    name: 'the word ignore in a sentence',
    file: 'SKILL.md',
    content: md('You can ignore this warning if the build succeeds. Ignore files listed in .gitignore.'),
  },
  { name: 'security text about exfiltration', file: 'SKILL.md', content: md('Code in the sandbox cannot read or exfiltrate the vaulted credential.') },
  {
    name: 'eval of command substitution (brew, ssh-agent)',
    file: 'SKILL.md',
    content: md('```bash\neval "$(/opt/homebrew/bin/brew shellenv)"\neval "$(ssh-agent -s)"\n```'),
  },
  {
    name: 'RegExp#exec next to child_process',
    file: 'scripts/a.js',
    content: 'const { spawnSync: _s } = { spawnSync: 1 };\n// child_process is not used here\nconst m = /x(\\d+)/.exec(s);\n',
  },
  {
    name: 'RegExp#exec with child_process imported',
    file: 'scripts/b.js',
    content: "const cp = require('child_process');\nconst m = /x(\\d+)/.exec(s);\nconst n = pattern.exec(s);\n",
  },
  { name: 'python re.compile', file: 'scripts/r.py', content: 'import re\nPAT = re.compile(r"\\d+")\n' },
  { name: 'python eval of a literal', file: 'scripts/l.py', content: 'x = eval("1 + 2")\n' },
  { name: 'rm -rf of a build folder', file: 'scripts/clean.sh', content: 'rm -rf ./build dist "$TMPDIR/out"\n' },
  { name: 'emoji ZWJ sequences', file: 'SKILL.md', content: md('Team: 👩‍💻 👨‍👩‍👧 🏳️‍🌈') },
  { name: 'sha256 digest in docs', file: 'SKILL.md', content: md('sha256: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08') },
  {
    name: 'loopback URLs and local websockets',
    file: 'scripts/dev.js',
    content: "const ws = new WebSocket('ws://localhost:9222/devtools');\nfetch('http://127.0.0.1:8123/health');\n",
  },
  { name: 'WebSocket on a standard port', file: 'scripts/ws.js', content: "const ws = new WebSocket('wss://stream.example.com:443/feed');\n" },
  { name: 'grep -e with a long pattern', file: 'scripts/g.sh', content: 'grep -e abcdefghijklmnopqrstuvwxyz012345 file.txt\n' },
  { name: 'ssh with an identity file', file: 'SKILL.md', content: md('```bash\nssh -i ~/.ssh/deploy_key user@host\n```') },
  {
    name: 'declared env used next to fetch',
    file: 'scripts/api.js',
    content: "const key = process.env.WEATHER_API_KEY;\nconst r = await fetch('https://api.weather.example/v1', { headers: { key } });\n",
  },
  {
    name: 'curl -d with inline heredoc JSON',
    file: 'SKILL.md',
    content: md('```bash\ncurl -s https://api.example.com/x \\\n  -d @- <<EOF\n{"a": 1}\nEOF\n```'),
  },
  { name: 'env checked before an unrelated curl', file: 'scripts/setup.sh', content: 'env | grep -q FOO_MODE && curl -fsSL https://example.com/x -o x.json\n' },
  { name: 'download then extract (not run)', file: 'SKILL.md', content: md('`curl -o x.tgz https://example.com/x.tgz && tar xzf x.tgz`') },
  { name: 'Markdown comment without instructions', file: 'SKILL.md', content: md('<!-- screenshot to be added here -->\nText.') },
];

describe('negative cases', () => {
  it.each(CLEAN)('$name is clean', (c) => {
    const result = scanSkill([{ path: c.file, content: Buffer.from(c.content) }], {
      env: ['WEATHER_API_KEY'],
      bins: [],
      homepage: 'https://example.com',
      installUrls: ['https://api.weather.example/'],
    });
    expect(
      result.findings.filter((f) => f.severity !== 'info'),
      JSON.stringify(result.findings, null, 1),
    ).toEqual([]);
    expect(result.verdict).toBe('clean');
  });
});
