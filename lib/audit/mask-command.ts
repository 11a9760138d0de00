// Secrets typed into a command line, masked before the command is stored or shown: values of
// secret-looking assignments and flags, credential headers, and passwords in URLs. The command is
// text, not parsed: each rule keeps the name and replaces only the value with "***".
import { SECRET_KEY } from './audit';

const MASK = '***';
/** A value as a shell word: single-quoted, double-quoted (with escapes) or bare up to a separator. */
const VALUE = String.raw`(?:'[^']*'|"(?:[^"\\]|\\.)*"|[^\s;&|)'"]+)`;
/** A name that says secret: the same words the audit log masks, and *_KEY / *_PAT names. */
const SECRET_NAME = new RegExp(`(?:${SECRET_KEY.source}|(?:^|_)(?:key|pat|pwd|auth)$)`, 'i');

const quoted = (v: string) => (v.startsWith("'") ? `'${MASK}'` : v.startsWith('"') ? `"${MASK}"` : MASK);

const RULES: [RegExp, (m: string, ...g: string[]) => string][] = [
  // NAME=value (a shell assignment, `export NAME=value`, an env argument of `env`).
  [
    new RegExp(String.raw`(^|[\s;&|(\`$'"])([A-Za-z_][A-Za-z0-9_]*)=(${VALUE})`, 'g'),
    (m, pre, name, v) => (SECRET_NAME.test(name) ? `${pre}${name}=${quoted(v)}` : m),
  ],
  // --password value, --api-key=value, --token "value".
  [
    new RegExp(String.raw`(^|\s)(--?[A-Za-z][A-Za-z0-9-]*)(=|\s+)(${VALUE})`, 'g'),
    (m, pre, flag, sep, v) => (SECRET_NAME.test(flag.replace(/^-+/, '').replace(/-/g, '_')) ? `${pre}${flag}${sep}${quoted(v)}` : m),
  ],
  // Credential headers: Authorization: Bearer x, Proxy-Authorization: Basic x, X-Api-Key: x, Cookie: x.
  [/\b((?:proxy-)?authorization\s*:\s*(?:(?:bearer|basic|token|digest)\s+)?)[^\s'"]+/gi, (_m, head) => `${head}${MASK}`],
  [/\b((?:x-[a-z-]{0,40}(?:api-?key|token|secret)|cookie|set-cookie)[ \t]{0,8}:[ \t]{0,8})[^'"]+/gi, (_m, head) => `${head}${MASK}`],
  // scheme://user:password@host
  [/\b([a-z][a-z0-9+.-]{0,30}:\/\/[^\s/:@'"]{1,256}:)[^\s/@'"]{1,256}@/gi, (_m, head) => `${head}${MASK}@`],
  // curl -u user:password, --user user:password
  [/(\s(?:-u|--user)\s+['"]?[^\s:'"]+:)[^\s'"]+/g, (_m, head) => `${head}${MASK}`],
];

/** The command with the values of secrets it carries replaced by "***". */
export function maskCommand(command: string): string {
  let out = command;
  for (const [re, fn] of RULES) out = out.replace(re, fn as (m: string, ...g: string[]) => string);
  return out;
}
