// Reserved env names: every variable that changes what a sandbox's programs load, trust or run at
// start-up is refused, in either case, with a message naming it and saying why.
import { describe, expect, it } from 'vitest';
import { envNameProblem, envNameToRemove, personalEnvUnset, setConfigEnvInput } from './rules';

const proxy = ['HTTP_PROXY', 'HTTPS_PROXY', 'ALL_PROXY', 'NO_PROXY', 'FTP_PROXY'];
const ca = ['SSL_CERT_FILE', 'SSL_CERT_DIR', 'REQUESTS_CA_BUNDLE', 'CURL_CA_BUNDLE', 'NODE_EXTRA_CA_CERTS', 'GIT_SSL_CAINFO', 'PIP_CERT'];
const loader = ['LD_PRELOAD', 'LD_LIBRARY_PATH', 'LD_AUDIT', 'DYLD_INSERT_LIBRARIES', 'DYLD_LIBRARY_PATH'];
const interpreter = [
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PYTHONHOME',
  'PERL5LIB',
  'PERL5OPT',
  'RUBYOPT',
  'RUBYLIB',
  'NODE_OPTIONS',
  'NODE_PATH',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
];
const shell = ['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'PS4', 'SHELLOPTS', 'BASHOPTS', 'IFS', 'CDPATH', 'GLOBIGNORE', 'ZDOTDIR', 'INPUTRC'];
const own = ['PATH', 'HOME'];

describe('reserved env names', () => {
  it.each([
    ...proxy.map((n) => [n, /proxy/]),
    ...proxy.map((n) => [n.toLowerCase(), /proxy/]),
    ...ca.map((n) => [n, /certificate authorities/]),
    ...loader.map((n) => [n, /dynamic loader/]),
    ...loader.map((n) => [n.toLowerCase(), /dynamic loader/]),
    ...interpreter.map((n) => [n, /interpreter reads it at start-up/]),
    ...shell.map((n) => [n, /shell reads it at start-up/]),
    ...own.map((n) => [n, /set by the sandbox itself/]),
  ] as [string, RegExp][])('refuses %s, naming it and why', (name, why) => {
    const p = envNameProblem(name);
    expect(p).toMatch(new RegExp(`^${name} is reserved and cannot be configured: `));
    expect(p).toMatch(why);
    const parsed = setConfigEnvInput.safeParse({ name, value: 'x' });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(p);
  });

  it.each([['API_KEY'], ['OPENAI_API_KEY'], ['MY_PROXY_HOST'], ['PYTHON_VERSION'], ['CERT_NAME'], ['ENVIRONMENT']])('accepts %s', (name) => {
    expect(envNameProblem(name)).toBeNull();
  });

  it('a var whose name became reserved can still be removed', () => {
    expect(envNameToRemove.safeParse('HTTPS_PROXY').success).toBe(true);
    expect(personalEnvUnset.safeParse({ level: 'personal_skill', skillKey: 'weather', name: 'HTTPS_PROXY' }).success).toBe(true);
    expect(envNameToRemove.safeParse('A=B').success).toBe(false);
  });
});
