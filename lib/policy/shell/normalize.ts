// The bytes that run are the bytes judged: a command is never folded or cleaned before it is parsed.
// Instead, a command that normalisation would change is refused — look-alike characters (NFKC:
// full-width `ｓｕｄｏ`, `＃`), invisible and bidirectional characters, Unicode spaces and line
// separators — as are NUL and control characters other than tab and newline. The shell reads such
// characters as ordinary bytes while a person (and other parsers) reads them as something else.

/** Zero-width and joiner characters: invisible, so `su\u200Bdo` would look like `sudo` to a person. */
// process-wide: a constant table, never written
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad]);
/** Bidirectional controls (Trojan Source): they reorder what a person reviewing the command sees. */
// process-wide: a constant table, never written
const BIDI = new Set([0x200e, 0x200f, 0x061c, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);
/** Non-ASCII separators (NBSP, ideographic space, line and paragraph separators) and format characters. */
const SEPARATOR_OR_FORMAT = /^[\p{Z}\p{Cf}\p{Cs}]$/u;

export type NormalizeRule = 'nul_byte' | 'control_char' | 'normalization';
export type Normalized = { ok: true; text: string } | { ok: false; rule: NormalizeRule; reason: string; offset: number };

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why one non-ASCII character is refused, or null when it is an ordinary letter or sign. */
function describe(ch: string, cp: number): string | null {
  if (ZERO_WIDTH.has(cp)) return `the invisible character ${hex(cp)}`;
  if (BIDI.has(cp)) return `the bidirectional control ${hex(cp)}, which reorders how the command is displayed`;
  if (cp >= 0x80 && cp < 0xa0) return `the control character ${hex(cp)}`;
  if (SEPARATOR_OR_FORMAT.test(ch)) return `${hex(cp)}, a Unicode space or format character the shell reads as part of a word`;
  const folded = ch.normalize('NFKC');
  if (folded !== ch) return `${hex(cp)} "${ch}", which reads like "${folded}" but is a different character to the shell`;
  return null;
}

/**
 * Accepts the command unchanged, or refuses it naming the first offending character and its
 * position (1-based, in characters). Never returns a text other than the input.
 */
export function normalizeCommand(raw: string): Normalized {
  let pos = 0;
  let runStart = -1;
  let run = '';
  let prevAscii = '';
  const endRun = (): Normalized | null => {
    if (run && run.normalize('NFKC') !== run) {
      return {
        ok: false,
        rule: 'normalization',
        offset: runStart,
        reason: `The text "${run}" at character ${runStart + 1} changes under Unicode normalisation (it reads like "${run.normalize('NFKC')}"); the command is refused rather than judged as something other than what runs.`,
      };
    }
    run = '';
    return null;
  };
  for (const ch of raw) {
    const cp = ch.codePointAt(0)!;
    const at = pos;
    pos++;
    if (cp === 0) return { ok: false, rule: 'nul_byte', offset: at, reason: `The command contains a NUL byte at character ${at + 1}.` };
    // Tab and newline are shell syntax; CR and the other C0 controls are read differently by
    // different parsers (a CR is a separator to some tokenizers and part of a word to bash).
    if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || cp === 0x7f) {
      return { ok: false, rule: 'control_char', offset: at, reason: `The command contains the control character ${hex(cp)} at character ${at + 1}.` };
    }
    if (cp < 0x80) {
      const bad = endRun();
      if (bad) return bad;
      prevAscii = ch;
      continue;
    }
    // A combining mark composes with the ASCII character before it (`>` + U+0338 shows as `≯`).
    const pair = prevAscii + ch;
    prevAscii = '';
    if (!run && pair.length > 1 && pair.normalize('NFKC') !== pair) {
      return {
        ok: false,
        rule: 'normalization',
        offset: at,
        reason: `The character ${hex(cp)} at character ${at + 1} combines with "${pair[0]}" before it (it reads like "${pair.normalize('NFKC')}"); the command is refused rather than judged as something other than what runs.`,
      };
    }
    const why = describe(ch, cp);
    if (why) {
      const rule = cp >= 0x80 && cp < 0xa0 ? 'control_char' : 'normalization';
      return {
        ok: false,
        rule,
        offset: at,
        reason: `The command contains ${why} at character ${at + 1}; the command is refused rather than judged as something other than what runs.`,
      };
    }
    if (!run) runStart = at;
    run += ch;
  }
  const bad = endRun();
  return bad ?? { ok: true, text: raw };
}
