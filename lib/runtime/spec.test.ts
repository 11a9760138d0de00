import { describe, expect, it } from 'vitest';
import { isAppError } from '../core/errors';
import { formatSpec, normalizePipName, parsePackageSpec, specLockKey } from './spec';

function rejects(raw: string, opts?: Parameters<typeof parsePackageSpec>[1]): string {
  try {
    parsePackageSpec(raw, opts);
  } catch (e) {
    expect(isAppError(e)).toBe(true);
    if (!isAppError(e)) throw e;
    expect(e.code).toBe('validation');
    expect(e.status).toBe(400);
    expect(e.issues).toEqual([{ path: 'spec', message: e.message }]);
    expect(e.message).toMatch(/Accepted forms: /);
    return e.message;
  }
  throw new Error(`expected ${JSON.stringify(raw)} to be rejected`);
}

describe('parsePackageSpec: valid forms', () => {
  it.each([
    ['pip:requests', { manager: 'pip', name: 'requests' }],
    ['pip:psycopg2-binary', { manager: 'pip', name: 'psycopg2-binary' }],
    ['pip:Django', { manager: 'pip', name: 'Django' }],
    ['pip:zope.interface', { manager: 'pip', name: 'zope.interface' }],
    ['pip:my_pkg', { manager: 'pip', name: 'my_pkg' }],
    ['pip:requests==2.31.0', { manager: 'pip', name: 'requests', version: '==2.31.0' }],
    ['pip:requests>=2.31', { manager: 'pip', name: 'requests', version: '>=2.31' }],
    ['pip:requests>=2.31,<3', { manager: 'pip', name: 'requests', version: '>=2.31,<3' }],
    ['pip:requests>=2.31, <3', { manager: 'pip', name: 'requests', version: '>=2.31,<3' }],
    ['pip:requests>=2.31 ,  <3', { manager: 'pip', name: 'requests', version: '>=2.31,<3' }],
    ['pip:psycopg[binary]', { manager: 'pip', name: 'psycopg', extras: ['binary'] }],
    ['pip:psycopg[pool,binary]>=3.1', { manager: 'pip', name: 'psycopg', extras: ['binary', 'pool'], version: '>=3.1' }],
    ['pip:foo~=1.4.2', { manager: 'pip', name: 'foo', version: '~=1.4.2' }],
    ['pip:foo==1.0.*', { manager: 'pip', name: 'foo', version: '==1.0.*' }],
    ['pip:foo!=1.5', { manager: 'pip', name: 'foo', version: '!=1.5' }],
    ['pip:foo===1.0', { manager: 'pip', name: 'foo', version: '===1.0' }],
    ['pip:foo==1!2.0rc1.post2.dev3', { manager: 'pip', name: 'foo', version: '==1!2.0rc1.post2.dev3' }],
    ['pip:foo==1.0+local.7', { manager: 'pip', name: 'foo', version: '==1.0+local.7' }],
    ['npm:typescript', { manager: 'npm', name: 'typescript' }],
    ['npm:@aiagentwiki/cli', { manager: 'npm', name: '@aiagentwiki/cli' }],
    ['npm:lodash.merge', { manager: 'npm', name: 'lodash.merge' }],
    ['npm:x@1.2.3', { manager: 'npm', name: 'x', version: '1.2.3' }],
    ['npm:x@^1.2', { manager: 'npm', name: 'x', version: '^1.2' }],
    ['npm:x@~1.2.3', { manager: 'npm', name: 'x', version: '~1.2.3' }],
    ['npm:x@>=1.2.0', { manager: 'npm', name: 'x', version: '>=1.2.0' }],
    ['npm:x@1.x', { manager: 'npm', name: 'x', version: '1.x' }],
    ['npm:x@2.0.0-beta.1', { manager: 'npm', name: 'x', version: '2.0.0-beta.1' }],
    ['npm:x@latest', { manager: 'npm', name: 'x', version: 'latest' }],
    ['npm:x@next', { manager: 'npm', name: 'x', version: 'next' }],
    ['npm:@scope/pkg@1.0.0', { manager: 'npm', name: '@scope/pkg', version: '1.0.0' }],
    ['system:ffmpeg', { manager: 'system', name: 'ffmpeg' }],
    ['ffmpeg', { manager: 'system', name: 'ffmpeg' }],
    ['pandoc', { manager: 'system', name: 'pandoc' }],
    ['g++', { manager: 'system', name: 'g++' }],
    ['libssl3', { manager: 'system', name: 'libssl3' }],
    ['apt:python3-pip', { manager: 'system', name: 'python3-pip', systemManager: 'apt' }],
    ['apk:py3-pip', { manager: 'system', name: 'py3-pip', systemManager: 'apk' }],
    ['github:cli/cli', { manager: 'github', name: 'cli/cli' }],
    ['github:cli/cli@v2.40.0', { manager: 'github', name: 'cli/cli', version: 'v2.40.0' }],
    ['github:jesseduffield/lazygit', { manager: 'github', name: 'jesseduffield/lazygit' }],
    ['github:BurntSushi/ripgrep@14.1.0', { manager: 'github', name: 'BurntSushi/ripgrep', version: '14.1.0' }],
    ['github:owner/.github', { manager: 'github', name: 'owner/.github' }],
  ])('%s', (raw, expected) => {
    const spec = parsePackageSpec(raw);
    expect(spec).toEqual({ raw, ...expected });
    // The canonical string parses to the same spec.
    const again = parsePackageSpec(formatSpec(spec));
    expect({ ...again, raw: '' }).toEqual({ ...spec, raw: '' });
  });

  it('accepts the same grammar in every context', () => {
    for (const context of ['install', 'deps', 'uninstall'] as const) {
      expect(parsePackageSpec('pip:requests>=2.31', { context }).version).toBe('>=2.31');
      expect(parsePackageSpec('npm:@scope/pkg@^1', { context }).name).toBe('@scope/pkg');
    }
  });

  it('accepts an installed github name only for uninstall', () => {
    expect(parsePackageSpec('github:gh', { context: 'uninstall' })).toEqual({ raw: 'github:gh', manager: 'github', name: 'gh' });
    expect(rejects('github:gh')).toMatch(/must be exactly owner\/repo/);
    expect(rejects('github:gh', { context: 'deps' })).toMatch(/must be exactly owner\/repo/);
  });

  it('accepts 256 characters and rejects 257', () => {
    const ok = `pip:${'a'.repeat(100)}==1${'.1'.repeat(74)}0`;
    expect(ok).toHaveLength(256);
    expect(parsePackageSpec(ok).name).toHaveLength(100);
    expect(rejects(`${ok}0`)).toMatch(/257 characters long/);
    expect(parsePackageSpec(`npm:${'a'.repeat(214)}`).name).toHaveLength(214);
    expect(rejects(`npm:${'a'.repeat(253)}`)).toMatch(/257 characters long; the limit is 256/);
  });
});

describe('parsePackageSpec: hostile and malformed input', () => {
  it.each([
    ['pip:foo;rm -rf /', /shell metacharacter ';' at position 8/],
    ["npm:a');require(", /shell metacharacter ''' at position 6/],
    ['$(id)', /shell metacharacter '\$' at position 1/],
    ['`id`', /shell metacharacter '`' at position 1/],
    ['foo|sh', /shell metacharacter '\|'/],
    ['foo&&bar', /shell metacharacter '&'/],
    ['pip:foo>1;python_version<"3.8"', /shell metacharacter ';'/],
    ['--index-url=http://x', /URLs are not accepted/],
    ['--index-url=x', /starts with '-', which a package manager would read as an option/],
    ['pip:--index-url=http://x', /URLs are not accepted/],
    ['pip:--index-url=x', /starts with '-'/],
    ['-rf', /"-rf" starts with '-'/],
    ['npm:-g', /"-g" starts with '-'/],
    ['system:-y', /"-y" starts with '-'/],
    ['apt:--allow-unauthenticated', /starts with '-'/],
    ['github:-x/repo', /not a valid GitHub owner/],
    ['github:o/r@-x', /starts with '-'/],
    ['pip:reqυests', /non-ASCII character U\+03C5 at position 8/],
    ['npm:ехpress', /non-ASCII character U\+0435 at position 5/],
    ['npm:expreѕs', /non-ASCII character U\+0455 at position 10/],
    ['ｆｆｍｐｅｇ', /non-ASCII character U\+FF46 at position 1/],
    ['pip:requests\u200b', /non-ASCII character U\+200B at position 13/],
    ['pip:foo @ https://x/y.whl', /URLs are not accepted/],
    ['pip:foo@1.0', /pip versions are written with ==/],
    ['pip:foo bar', /whitespace at position 8/],
    ['pip:requests >=2.31', /whitespace at position 13/],
    ['npm:x@1.0 , 2', /whitespace at position 10/],
    ['npm:git+ssh://x', /URLs are not accepted/],
    ['npm:git+ssh:git@github.com:x/y', /git, file and URL references are not accepted/],
    ['npm:file:../x', /git, file and URL references are not accepted/],
    ['npm:x@file:../x', /git, file and URL references are not accepted/],
    ['npm:x@github:o/r', /git, file and URL references are not accepted/],
    ['npm:x@npm:y', /git, file and URL references are not accepted/],
    ['npm:o/r', /owner\/repo shorthands are not accepted/],
    ['foo:bar', /unknown prefix "foo:"; the accepted prefixes are pip:, npm:, system:, apt:, apk:, github: or none/],
    ['PIP:requests', /prefixes are lowercase: pip:/],
    ['http:x', /unknown prefix "http:"/],
    ['pip:', /pip: needs a package name/],
    ['npm:', /npm: needs a package name/],
    ['system:', /needs a name/],
    ['github:', /github: needs owner\/repo/],
    ['npm:@scope/', /needs a package name after the scope/],
    ['npm:@/x', /empty scope/],
    ['npm:@scope', /a scoped name looks like @scope\/name/],
    ['npm:@a/b/c', /more than one '\/'/],
    ['github:a/../b', /must be exactly owner\/repo/],
    ['github:a/..', /not a valid repository name/],
    ['github:a/.', /not a valid repository name/],
    ['github:a/b@..', /not a valid tag/],
    ['github:a/b@', /a tag is needed/],
    ['github:a/b@v1/../../x', /not a valid tag/],
    ['github:owner', /must be exactly owner\/repo/],
    ['pip:foo\nbar', /control character U\+000A at position 8/],
    ['ffmpeg\r\nrm', /control character U\+000D at position 7/],
    ['npm:x\u0000', /NUL byte at position 6/],
    ['pip:x\tfoo', /control character U\+0009/],
    ['pip:x\u001b[31m', /control character U\+001B/],
    [' ffmpeg', /whitespace at position 1/],
    ['ffmpeg ', /whitespace at position 7/],
    ['', /it is empty/],
    ['pip:>=1.0', /pip: needs a package name/],
    ['pip:[binary]', /pip: needs a package name/],
    ['pip:foo[]', /extra "" is not a valid extra name/],
    ['pip:foo[a-]', /extra "a-" is not a valid extra name/],
    ['pip:_private', /not a valid pip name/],
    ['pip:foo.', /not a valid pip name/],
    ['pip:foo/bar', /not a valid pip name/],
    ['pip:foo>=', /version specifier ">=" is not valid/],
    ['pip:foo=1.0', /version specifier "=1.0" is not valid/],
    ['pip:foo>=1.0.0-beta', /is not valid/],
    ['pip:foo>=latest', /is not valid/],
    ['pip:foo>=1.*', /prefix match is only allowed with == and !=/],
    ['pip:foo>=1.0+local', /local version/],
    ['pip:foo~=1', /~= needs at least two release segments/],
    ['pip:foo>=1,,<2', /version specifier "" is not valid/],
    ['npm:Express', /uppercase letters; npm names are lowercase/],
    ['npm:.hidden', /starts with '\.'/],
    ['npm:_under', /starts with '_'/],
    ['npm:node_modules', /reserved npm name/],
    ['npm:x@', /needs a version, range or dist-tag/],
    ['npm:x@1.2.3 || 2', /whitespace/],
    ['npm:x@Latest', /not a semver version/],
    ['npm:x@=', /not a semver version/],
    ['npm:x@1.2.3.4.5', /not a semver version/],
    ['npm:a!b', /may contain only lowercase letters/],
    ['npm:a*b', /may contain only lowercase letters/],
    ['FFmpeg', /uppercase letters; Debian and Alpine package names are lowercase/],
    ['lib_x', /not a valid system package name/],
    ['ffmpeg=7.0', /system packages take no version/],
    ['libc6:amd64', /unknown prefix "libc6:"/],
    ['system:a/b', /not a valid system package name/],
    ['system:../../etc/passwd', /not a valid system package name/],
  ])('rejects %j', (raw, message) => {
    expect(rejects(raw)).toMatch(message);
  });

  it('rejects overlong names with the limit', () => {
    expect(rejects(`pip:${'a'.repeat(101)}`)).toMatch(/101 characters long; the limit is 100/);
    expect(rejects(`system:${'a'.repeat(101)}`)).toMatch(/at most 100 characters/);
    expect(rejects(`github:${'a'.repeat(40)}/r`)).toMatch(/not a valid GitHub owner/);
    expect(rejects(`github:o/${'r'.repeat(101)}`)).toMatch(/not a valid repository name/);
    expect(rejects(`github:o/r@${'t'.repeat(129)}`)).toMatch(/not a valid tag/);
    expect(rejects('x'.repeat(10_000))).toMatch(/10000 characters long; the limit is 256/);
  });

  it('shows hostile input escaped in the message', () => {
    const msg = rejects('pip:foo\nrm -rf /');
    expect(msg).toContain('"pip:foo\\u{a}rm -rf /"');
    expect(msg).not.toContain('\n');
  });
});

describe('formatSpec and specLockKey', () => {
  it('formats canonical strings', () => {
    expect(formatSpec(parsePackageSpec('pip:requests>=2.31 , <3'))).toBe('pip:requests>=2.31,<3');
    expect(formatSpec(parsePackageSpec('pip:psycopg[Pool,binary,pool]'))).toBe('pip:psycopg[binary,pool]');
    expect(formatSpec(parsePackageSpec('ffmpeg'))).toBe('system:ffmpeg');
    expect(formatSpec(parsePackageSpec('apk:ffmpeg'))).toBe('apk:ffmpeg');
    expect(formatSpec(parsePackageSpec('npm:@s/p@^1'))).toBe('npm:@s/p@^1');
    expect(formatSpec(parsePackageSpec('github:cli/cli@v2.40.0'))).toBe('github:cli/cli@v2.40.0');
  });

  it('normalises pip names per PEP 503', () => {
    expect(normalizePipName('Zope.Interface')).toBe('zope-interface');
    expect(normalizePipName('my__pkg-._x')).toBe('my-pkg-x');
  });

  it('gives one lock key per manager and canonical name', () => {
    const key = (s: string) => specLockKey(parsePackageSpec(s));
    expect(key('pip:Requests==2.0')).toBe(key('pip:requests[socks]>=1'));
    expect(key('pip:zope.interface')).toBe('pip:zope-interface');
    expect(key('pip:zope_interface')).toBe('pip:zope-interface');
    expect(key('npm:x@1')).toBe('npm:x');
    expect(key('npm:@s/x@latest')).toBe('npm:@s/x');
    expect(key('ffmpeg')).toBe('system:ffmpeg');
    expect(key('apt:ffmpeg')).toBe('system:ffmpeg');
    expect(key('apk:ffmpeg')).toBe('system:ffmpeg');
    expect(key('github:Cli/CLI@v1')).toBe('github:cli/cli');
    expect(key('pip:x')).not.toBe(key('npm:x'));
  });
});
