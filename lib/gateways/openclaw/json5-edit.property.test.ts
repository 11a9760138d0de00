// Generated configs in many JSON5 styles and generated merge patches: every edit must parse to
// exactly the merged value, keep the text of every top-level member the patch does not name, keep
// the header comment and keep the file's line ends. Seeded, so a failure repeats.
import JSON5 from 'json5';
import { describe, expect, it } from 'vitest';
import { applyMergePatch, mergePatch } from './json5-edit';

type Rng = () => number;

function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = ['a', 'b', 'skills', 'image-lab', 'with space', '$x', '_y', 'ünï', '0k', 'agents', 'it\'s "q"'];
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function genScalar(r: Rng): unknown {
  return pick(r, [
    () => null,
    () => r() < 0.5,
    () => Math.floor(r() * 1000) - 500,
    () => Math.round(r() * 1e4) / 100,
    () => pick(r, [Infinity, -Infinity, Number.NaN, 255, 1e21]),
    () => pick(r, ['', 'x', 'a b', "it's", 'q"uote', 'back\\slash', 'new\nline', 'tab\t', 'ü', '{[//]}', '/* no */']),
  ])();
}

function genValue(r: Rng, depth: number): unknown {
  const roll = r();
  if (depth >= 4 || roll < 0.45) return genScalar(r);
  if (roll < 0.65) return Array.from({ length: Math.floor(r() * 4) }, () => genValue(r, depth + 1));
  const out: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) out[pick(r, KEYS)] = genValue(r, depth + 1);
  return out;
}

function genPatch(r: Rng, target: unknown, depth: number): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const existing = target && typeof target === 'object' && !Array.isArray(target) ? Object.keys(target) : [];
  const keys = [...existing.filter(() => r() < 0.4), ...Array.from({ length: Math.floor(r() * 3) }, () => pick(r, KEYS))];
  for (const k of keys) {
    const roll = r();
    const cur = (target as Record<string, unknown> | undefined)?.[k];
    if (roll < 0.3) patch[k] = null;
    else if (roll < 0.6 && depth < 4) patch[k] = genPatch(r, cur, depth + 1);
    else patch[k] = genValue(r, depth + 1);
  }
  return patch;
}

interface Style {
  nl: string;
  unit: string;
}

function renderString(r: Rng, s: string): string {
  if (r() < 0.6) return JSON.stringify(s);
  let out = "'";
  for (const c of s) out += c === "'" ? "\\'" : c === '\\' ? '\\\\' : c === '\n' ? (r() < 0.5 ? '\\n' : '\\u000a') : c;
  return `${out}'`;
}

function renderScalar(r: Rng, v: unknown): string {
  if (typeof v === 'string') return renderString(r, v);
  if (typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < 1e6 && r() < 0.3) return `0x${v.toString(16)}`;
  if (typeof v === 'number' && v > 0 && r() < 0.2) return `+${v}`;
  return String(v);
}

function renderKey(r: Rng, k: string): string {
  const ident = /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(k);
  const roll = r();
  if (ident && roll < 0.5) return roll < 0.1 ? `\\u${k.charCodeAt(0).toString(16).padStart(4, '0')}${k.slice(1)}` : k;
  return renderString(r, k);
}

/** Trivia between tokens: nothing, spaces, a block comment or a line comment (which needs its line end). */
function gap(r: Rng, s: Style, indent: string): string {
  const roll = r();
  if (roll < 0.6) return roll < 0.3 ? '' : ' ';
  if (roll < 0.8) return ' /* c */ ';
  return ` // c${s.nl}${indent}`;
}

function render(r: Rng, v: unknown, s: Style, indent: string): string {
  if (v === null || typeof v !== 'object') return renderScalar(r, v);
  const entries: [string | null, unknown][] = Array.isArray(v) ? v.map((x) => [null, x]) : Object.entries(v);
  // A duplicate key that json5 overrides with the later one.
  if (!Array.isArray(v) && entries.length > 0 && r() < 0.1) entries.unshift([entries[0][0], genScalar(r)]);
  const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
  if (entries.length === 0) return r() < 0.7 ? open + close : `${open}${gap(r, s, indent + s.unit)}${close}`;
  const multi = r() < 0.7;
  const inner = multi ? indent + s.unit : indent;
  const parts = entries.map(([k, x]) => {
    const key = k === null ? '' : `${renderKey(r, k)}${r() < 0.2 ? ' ' : ''}:${r() < 0.8 ? ' ' : ''}`;
    return `${key}${render(r, x, s, inner)}${gap(r, s, inner)}`;
  });
  const trailing = r() < 0.5 ? ',' : '';
  if (!multi) return `${open}${r() < 0.5 ? ' ' : ''}${parts.join(', ')}${trailing} ${close}`;
  const lines = parts.map((p) => inner + p);
  return `${open}${s.nl}${lines.join(`,${s.nl}`)}${trailing}${s.nl}${indent}${close}`;
}

describe('applyMergePatch on generated configs', () => {
  it('always yields the merged value and keeps what the patch does not name', () => {
    const r = mulberry32(20261206);
    let edited = 0;
    for (let n = 0; n < 1500; n++) {
      const s: Style = { nl: r() < 0.3 ? '\r\n' : '\n', unit: pick(r, ['  ', '    ', '\t']) };
      const root = genValue(r, 1);
      const value = root && typeof root === 'object' && !Array.isArray(root) ? root : { a: root };
      const text = `// header${s.nl}${render(r, value, s, '')}${s.nl}`;
      const before = JSON5.parse(text);
      const patch = genPatch(r, before, 1);
      let out: string;
      try {
        out = applyMergePatch(text, patch);
      } catch (e) {
        throw new Error(`case ${n}: ${(e as Error).message}\n${text}\npatch ${JSON.stringify(patch)}`);
      }
      expect(JSON5.parse(out), `case ${n}:\n${text}\n=>\n${out}`).toEqual(mergePatch(before, patch));
      expect(out.startsWith(`// header${s.nl}`)).toBe(true);
      if (s.nl === '\r\n') expect(out.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
      // A patch naming no key of the root keeps the text byte for byte.
      if (Object.values(patch).every((p) => p === null) && !Object.keys(patch).some((k) => Object.hasOwn(before, k))) expect(out).toBe(text);
      if (out !== text) edited++;
    }
    expect(edited).toBeGreaterThan(1000);
  });

  it('keeps the text of each top-level member the patch does not name', () => {
    const r = mulberry32(7);
    for (let n = 0; n < 300; n++) {
      const s: Style = { nl: '\n', unit: '  ' };
      const members = Array.from({ length: 1 + Math.floor(r() * 5) }, (_, i) => [`m${i}`, genValue(r, 2)] as const);
      const lines = members.map(([k, v]) => `  ${k}: ${render(r, v, s, '  ')}, // keep ${k}`);
      const text = `{\n${lines.join('\n')}\n}\n`;
      const patch = genPatch(r, JSON5.parse(text), 1);
      const out = applyMergePatch(text, patch);
      members.forEach(([k], i) => {
        if (!Object.hasOwn(patch, k)) expect(out, `case ${n}`).toContain(lines[i]);
      });
    }
  });
});
