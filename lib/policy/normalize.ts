// Text normalisation before a command is parsed and judged: look-alike characters folded (NFKC:
// full-width `ｓｕｄｏ` → `sudo`), invisible characters removed, and bytes a shell and this parser
// could read differently refused.

/** Zero-width and joiner characters: invisible, so `su\u200Bdo` would look like `sudo` to a person. */
const ZERO_WIDTH = new Set([0x200b, 0x200c, 0x200d, 0x2060, 0xfeff, 0x180e, 0x00ad]);
/** Bidirectional controls (Trojan Source): they reorder what a person reviewing the command sees. */
const BIDI = new Set([0x200e, 0x200f, 0x061c, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069]);

export type Normalized = { ok: true; text: string } | { ok: false; rule: 'nul_byte' | 'control_char'; reason: string };

/**
 * NFKC over the non-ASCII runs only. Folding the whole string would let a combining mark change
 * the ASCII character before it (`>` + U+0338 composes to `≯`), hiding a redirect that bash — which
 * reads ASCII bytes as they are — still performs.
 */
export function foldLookalikes(raw: string): string {
  let out = '';
  let run = '';
  for (const ch of raw) {
    if (ch.charCodeAt(0) < 0x80) {
      if (run) out += run.normalize('NFKC');
      run = '';
      out += ch;
    } else run += ch;
  }
  return run ? out + run.normalize('NFKC') : out;
}

export function normalizeCommand(raw: string): Normalized {
  if (raw.includes('\0')) return { ok: false, rule: 'nul_byte', reason: 'The command contains a NUL byte.' };
  let out = '';
  for (const ch of foldLookalikes(raw)) {
    const cp = ch.codePointAt(0)!;
    if (ZERO_WIDTH.has(cp) || BIDI.has(cp)) continue;
    // Tab and newline are shell syntax; CR and the other C0/C1 controls are read differently by
    // different parsers (a CR is a separator to some tokenizers and part of a word to bash).
    if ((cp < 0x20 && cp !== 0x09 && cp !== 0x0a) || cp === 0x7f || (cp >= 0x80 && cp < 0xa0)) {
      return { ok: false, rule: 'control_char', reason: `The command contains the control character U+${cp.toString(16).toUpperCase().padStart(4, '0')}.` };
    }
    out += ch;
  }
  return { ok: true, text: out };
}
