import { describe, expect, it } from 'vitest';
import { normalizeCommand } from './normalize';
import { unescapeUnquoted } from './words';

/** Characters normalisation would change or a person cannot see, with where they sit in the sample. */
const LOOKALIKES = ['ｓ', 'ｕ', '＃', '；', '｜', '／', '＄', '（', 'ﬁ', '①', 'ｅ', '＆', '＞', '\u00a0', '\u3000', '\u2028', '\u2029', '\u1680', '\u2007'];
const INVISIBLE = ['\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u180e', '\u00ad', '\u061c', '\u200e', '\u202e', '\u2066', '\u2069', '\u2062'];
const CONTROLS = ['\r', '\x01', '\x07', '\x08', '\x0b', '\x0c', '\x1b', '\x7f', '\u0085', '\u009b'];

describe('normalizeCommand', () => {
  it('refuses every look-alike, at any position, naming the character and where it is', () => {
    for (const ch of [...LOOKALIKES, ...INVISIBLE]) {
      for (const [cmd, at] of [
        [`echo ok ${ch}; id`, 9],
        [`${ch}sudo ls`, 1],
        [`ls -la${ch}`, 7],
        [`git commit -m "a${ch}b"`, 17],
      ] as const) {
        const n = normalizeCommand(cmd);
        expect(n, JSON.stringify(cmd)).toMatchObject({ ok: false, rule: 'normalization', offset: at - 1 });
        if (!n.ok) {
          const cp = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
          expect(n.reason).toContain(`U+${cp}`);
          expect(n.reason).toContain(`character ${at}`);
        }
      }
    }
  });

  it('refuses a decomposed sequence NFKC would compose, a combining mark on an ASCII character included', () => {
    expect(normalizeCommand('echo \u1100\u1161')).toMatchObject({ ok: false, rule: 'normalization', offset: 5 });
    // `>` + U+0338 shows as `≯` (no redirect to a reader) while the shell redirects.
    expect(normalizeCommand('echo x >\u0338f')).toMatchObject({ ok: false, rule: 'normalization', offset: 8 });
    expect(normalizeCommand('echo e\u0301\u0301x')).toMatchObject({ ok: false, rule: 'normalization', offset: 6 });
    // A mark that composes with nothing stays the text it is.
    expect(normalizeCommand('echo \u00e9\u0301x')).toEqual({ ok: true, text: 'echo \u00e9\u0301x' });
  });

  it('returns the command unchanged when it is accepted: tabs, newlines and letters of any script', () => {
    for (const t of ['echo "suất ăn"\tx\ny', 'grep "日本語" a.txt', 'echo "Ünïcödé — ok"', 'ls -la'])
      expect(normalizeCommand(t)).toEqual({ ok: true, text: t });
  });

  it('refuses NUL and every control character but tab and newline, with its position', () => {
    expect(normalizeCommand('ls\0')).toMatchObject({ ok: false, rule: 'nul_byte', offset: 2 });
    for (const c of CONTROLS) {
      const n = normalizeCommand(`ls${c}id`);
      expect(n, JSON.stringify(c)).toMatchObject({ ok: false, rule: 'control_char', offset: 2 });
      if (!n.ok) expect(n.reason).toContain('character 3');
    }
  });
});

describe('quote removal', () => {
  it('removes backslashes from unquoted words and drops line continuations', () => {
    expect(unescapeUnquoted('s\\udo')).toBe('sudo');
    expect(unescapeUnquoted('a\\\nb')).toBe('ab');
    expect(unescapeUnquoted('a\\ b')).toBe('a b');
    expect(unescapeUnquoted('plain')).toBe('plain');
  });
});
