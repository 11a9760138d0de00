import { describe, expect, it } from 'vitest';
import { documentedCommands } from './commands';

const md = [
  '# Weather',
  'Run:',
  '```bash',
  '# a comment',
  'curl -s "https://wttr.in/London?format=3"',
  '',
  'python3 {baseDir}/scripts/w.py \\',
  '  --city London',
  '$ jq .x f.json',
  '```',
  '```json',
  '{"not": "a command"}',
  '```',
  '```console',
  '$ ls -la',
  'total 0',
  '```',
  '```',
  'untagged block',
  '```',
  '~~~sh',
  'curl -s "https://wttr.in/London?format=3"',
  'echo done',
  '~~~',
].join('\n');

describe('documentedCommands', () => {
  it('takes the commands of shell blocks only, joins continuations, drops prompts, comments and output', () => {
    expect(documentedCommands(md, 20, '/opt/s/weather')).toEqual({
      commands: ['curl -s "https://wttr.in/London?format=3"', 'python3 /opt/s/weather/scripts/w.py \\\n  --city London', 'jq .x f.json', 'ls -la', 'echo done'],
      truncated: false,
    });
  });

  it('returns at most max commands and says when it cut', () => {
    expect(documentedCommands(md, 2)).toEqual({
      commands: ['curl -s "https://wttr.in/London?format=3"', 'python3 {baseDir}/scripts/w.py \\\n  --city London'],
      truncated: true,
    });
    expect(documentedCommands('no code here', 5)).toEqual({ commands: [], truncated: false });
  });

  it('an unclosed fence ends with the text; a longer fence is not closed by a shorter one', () => {
    expect(documentedCommands('````bash\nls\n```\nstill inside\n````\n', 5).commands).toEqual(['ls', '```', 'still inside']);
    expect(documentedCommands('```bash\nls -a', 5).commands).toEqual(['ls -a']);
  });
});
