import { describe, expect, it } from 'vitest';
import { normalizeCommand } from './normalize';
import { decodeAnsiC, unescapeUnquoted } from './words';

describe('normalizeCommand', () => {
  it('folds full-width look-alikes and strips zero-width and bidi characters', () => {
    expect(normalizeCommand('ｓｕｄｏ ｌｓ')).toEqual({ ok: true, text: 'sudo ls' });
    expect(normalizeCommand('su\u200bdo\u200c \u200dl\u2060s\ufeff')).toEqual({ ok: true, text: 'sudo ls' });
    expect(normalizeCommand('\u202erm\u202c -rf \u2066x\u2069')).toEqual({ ok: true, text: 'rm -rf x' });
    expect(normalizeCommand('cat ／etc／passwd')).toEqual({ ok: true, text: 'cat /etc/passwd' });
  });

  it('never lets a combining mark change the ASCII character before it', () => {
    // `>` + U+0338 would compose to `≯` and hide the redirect bash still performs.
    expect(normalizeCommand('echo x >\u0338f')).toEqual({ ok: true, text: 'echo x >\u0338f' });
    expect(normalizeCommand('A=\u0338x')).toEqual({ ok: true, text: 'A=\u0338x' });
    expect(normalizeCommand('ｌｓ >\u0338f')).toEqual({ ok: true, text: 'ls >\u0338f' });
  });

  it('keeps tabs, newlines and letters of any script', () => {
    expect(normalizeCommand('echo "suất ăn"\tx\ny')).toEqual({ ok: true, text: 'echo "suất ăn"\tx\ny' });
  });

  it('refuses NUL, CR and other control characters', () => {
    expect(normalizeCommand('ls\0')).toMatchObject({ ok: false, rule: 'nul_byte' });
    expect(normalizeCommand('ls\r\nid')).toMatchObject({ ok: false, rule: 'control_char' });
    expect(normalizeCommand('ls\x1b[2J')).toMatchObject({ ok: false, rule: 'control_char' });
    expect(normalizeCommand('ls\x7f')).toMatchObject({ ok: false, rule: 'control_char' });
    expect(normalizeCommand('ls\u0085')).toMatchObject({ ok: false, rule: 'control_char' });
  });
});

describe('quote removal', () => {
  it('decodes ANSI-C strings as bash does, then normalises the result', () => {
    expect(decodeAnsiC('\\x73udo')).toBe('sudo');
    expect(decodeAnsiC('\\163udo')).toBe('sudo');
    expect(decodeAnsiC('\\u0073udo')).toBe('sudo');
    expect(decodeAnsiC('\\U00000073udo')).toBe('sudo');
    expect(decodeAnsiC('\\uff53udo')).toBe('sudo');
    expect(decodeAnsiC("a\\tb\\n\\'\\\\")).toBe("a\tb\n'\\");
    expect(decodeAnsiC('\\q')).toBe('\\q');
  });

  it('removes backslashes from unquoted words and drops line continuations', () => {
    expect(unescapeUnquoted('s\\udo')).toBe('sudo');
    expect(unescapeUnquoted('a\\\nb')).toBe('ab');
    expect(unescapeUnquoted('a\\ b')).toBe('a b');
    expect(unescapeUnquoted('plain')).toBe('plain');
  });
});
