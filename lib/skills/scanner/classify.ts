/**
 * What a file is: a script language (by extension, then shebang), Markdown, other text, or a
 * binary (executable, archive, media). Binaries are not pattern-scanned; they get their own findings.
 */
import type { ScanFinding } from '../types';
import type { Lang } from './model';

const BY_EXTENSION: Record<string, Lang> = {
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  dash: 'shell',
  fish: 'shell',
  command: 'shell',
  py: 'python',
  pyw: 'python',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'js',
  mts: 'js',
  cts: 'js',
  jsx: 'js',
  tsx: 'js',
  ps1: 'powershell',
  psm1: 'powershell',
  psd1: 'powershell',
  rb: 'ruby',
  pl: 'perl',
  pm: 'perl',
};

const SHEBANG = /^#!\s*(?:\S*\/)?(?:env\s+(?:-S\s+)?)?([a-z]+)/;
const BY_INTERPRETER: Record<string, Lang> = {
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  dash: 'shell',
  ash: 'shell',
  fish: 'shell',
  python: 'python',
  python2: 'python',
  python3: 'python',
  node: 'js',
  deno: 'js',
  bun: 'js',
  tsx: 'js',
  'ts-node': 'js',
  pwsh: 'powershell',
  powershell: 'powershell',
  ruby: 'ruby',
  perl: 'perl',
};

/** `python3.11` → `python`: the trailing run of digits and dots dropped. */
function withoutVersion(name: string): string {
  let end = name.length;
  while (end > 0 && /[\d.]/.test(name[end - 1])) end--;
  return name.slice(0, end);
}

export function languageOf(path: string, text: string): Lang {
  const base = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const dot = base.lastIndexOf('.');
  const byExt = dot > 0 ? BY_EXTENSION[base.slice(dot + 1)] : undefined;
  if (byExt) return byExt;
  const m = SHEBANG.exec(text.slice(0, 200));
  if (m) {
    const interp = withoutVersion(m[1]);
    return BY_INTERPRETER[m[1]] ?? BY_INTERPRETER[interp] ?? 'text';
  }
  return 'text';
}

const FENCE_LANGS: Record<string, Lang> = {
  '': 'shell',
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  zsh: 'shell',
  console: 'shell',
  'shell-session': 'shell',
  shellsession: 'shell',
  terminal: 'shell',
  python: 'python',
  py: 'python',
  python3: 'python',
  js: 'js',
  javascript: 'js',
  ts: 'js',
  typescript: 'js',
  jsx: 'js',
  tsx: 'js',
  mjs: 'js',
  node: 'js',
  powershell: 'powershell',
  ps1: 'powershell',
  pwsh: 'powershell',
  ps: 'powershell',
  ruby: 'ruby',
  rb: 'ruby',
  perl: 'perl',
  pl: 'perl',
};

/** Language of a fenced block from its info string (no info string: treated as shell commands). */
export function languageOfFence(info: string): Lang {
  const word = /^\{?\.?([\w-]*)/.exec(info.toLowerCase())![1];
  return FENCE_LANGS[word] ?? 'text';
}

export type BinaryKind = 'archive' | 'executable' | 'media' | 'binary';

interface Magic {
  kind: BinaryKind;
  label: string;
  bytes: number[];
  at?: number;
}

const MAGICS: Magic[] = [
  { kind: 'archive', label: 'ZIP archive', bytes: [0x50, 0x4b, 0x03, 0x04] },
  { kind: 'archive', label: 'ZIP archive', bytes: [0x50, 0x4b, 0x05, 0x06] },
  { kind: 'archive', label: 'ZIP archive', bytes: [0x50, 0x4b, 0x07, 0x08] },
  { kind: 'archive', label: 'gzip archive', bytes: [0x1f, 0x8b] },
  { kind: 'archive', label: '7z archive', bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c] },
  { kind: 'archive', label: 'RAR archive', bytes: [0x52, 0x61, 0x72, 0x21, 0x1a, 0x07] },
  { kind: 'archive', label: 'xz archive', bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00] },
  { kind: 'archive', label: 'bzip2 archive', bytes: [0x42, 0x5a, 0x68] },
  { kind: 'archive', label: 'zstd archive', bytes: [0x28, 0xb5, 0x2f, 0xfd] },
  { kind: 'archive', label: 'tar archive', bytes: [0x75, 0x73, 0x74, 0x61, 0x72], at: 257 },
  { kind: 'executable', label: 'ELF executable', bytes: [0x7f, 0x45, 0x4c, 0x46] },
  { kind: 'executable', label: 'Mach-O executable', bytes: [0xfe, 0xed, 0xfa, 0xce] },
  { kind: 'executable', label: 'Mach-O executable', bytes: [0xfe, 0xed, 0xfa, 0xcf] },
  { kind: 'executable', label: 'Mach-O executable', bytes: [0xce, 0xfa, 0xed, 0xfe] },
  { kind: 'executable', label: 'Mach-O executable', bytes: [0xcf, 0xfa, 0xed, 0xfe] },
  { kind: 'executable', label: 'Mach-O universal binary', bytes: [0xca, 0xfe, 0xba, 0xbe] },
  { kind: 'executable', label: 'PE (Windows) executable', bytes: [0x4d, 0x5a] },
  { kind: 'executable', label: 'WebAssembly module', bytes: [0x00, 0x61, 0x73, 0x6d] },
  { kind: 'media', label: 'PNG image', bytes: [0x89, 0x50, 0x4e, 0x47] },
  { kind: 'media', label: 'JPEG image', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'media', label: 'GIF image', bytes: [0x47, 0x49, 0x46, 0x38] },
  { kind: 'media', label: 'PDF document', bytes: [0x25, 0x50, 0x44, 0x46] },
  { kind: 'media', label: 'WOFF font', bytes: [0x77, 0x4f, 0x46, 0x46] },
  { kind: 'media', label: 'WOFF2 font', bytes: [0x77, 0x4f, 0x46, 0x32] },
  { kind: 'media', label: 'TrueType font', bytes: [0x00, 0x01, 0x00, 0x00] },
  { kind: 'media', label: 'OpenType font', bytes: [0x4f, 0x54, 0x54, 0x4f] },
  { kind: 'media', label: 'ICO image', bytes: [0x00, 0x00, 0x01, 0x00] },
  { kind: 'media', label: 'RIFF media (WAV/WebP/AVI)', bytes: [0x52, 0x49, 0x46, 0x46] },
  { kind: 'media', label: 'Ogg media', bytes: [0x4f, 0x67, 0x67, 0x53] },
  { kind: 'media', label: 'MP3 audio', bytes: [0x49, 0x44, 0x33] },
];

function hasBytes(buf: Buffer, bytes: number[], at = 0): boolean {
  if (buf.length < at + bytes.length) return false;
  return bytes.every((b, i) => buf[at + i] === b);
}

/** What kind of binary `content` is, or null for text (no magic, no NUL in the first 8 KiB). */
export function sniffBinary(content: Buffer): { kind: BinaryKind; label: string } | null {
  const hasNul = content.subarray(0, 8192).includes(0);
  const magic = MAGICS.find((m) => hasBytes(content, m.bytes, m.at));
  // An all-ASCII magic ("MZ", "%PDF", "ID3") counts only with a NUL: otherwise a text file could
  // start with it to skip the text rules.
  const asciiMagic = magic?.bytes.every((b) => b >= 0x20 && b < 0x7f);
  if (magic && (hasNul || !asciiMagic)) return { kind: magic.kind, label: magic.label };
  return hasNul ? { kind: 'binary', label: 'binary data' } : null;
}

/** True when any ZIP local or central header has general-purpose flag bit 0 (encrypted entry). */
export function zipHasEncryptedEntry(buf: Buffer): boolean {
  const sigs: [Buffer, number][] = [
    [Buffer.from([0x50, 0x4b, 0x03, 0x04]), 6],
    [Buffer.from([0x50, 0x4b, 0x01, 0x02]), 8],
  ];
  for (const [sig, flagOffset] of sigs) {
    for (let i = buf.indexOf(sig); i !== -1; i = buf.indexOf(sig, i + 4)) {
      if (i + flagOffset + 2 <= buf.length && (buf.readUInt16LE(i + flagOffset) & 1) === 1) return true;
    }
  }
  return false;
}

/** Findings for a binary file (no pattern rules run on it). */
export function binaryFindings(file: string, content: Buffer, sniff: { kind: BinaryKind; label: string }): ScanFinding[] {
  const at = { file, line: 1, excerpt: sniff.label };
  if (sniff.kind === 'archive') {
    const out: ScanFinding[] = [{ ...at, rule: 'nested-archive', severity: 'warn', message: `${sniff.label} inside the skill: its contents are not scanned.` }];
    if (sniff.label === 'ZIP archive' && zipHasEncryptedEntry(content)) {
      out.push({
        ...at,
        rule: 'encrypted-archive',
        severity: 'critical',
        message: 'Password-protected ZIP archive: its contents cannot be inspected (ClawHavoc delivery technique).',
      });
    }
    return out;
  }
  if (sniff.kind === 'executable') {
    return [{ ...at, rule: 'binary-file', severity: 'warn', message: `${sniff.label} inside the skill: compiled code cannot be reviewed or scanned.` }];
  }
  if (sniff.kind === 'media') {
    return [{ ...at, rule: 'binary-file', severity: 'info', message: `${sniff.label}: not scanned.` }];
  }
  return [{ ...at, rule: 'binary-file', severity: 'warn', message: 'Binary file inside the skill: it cannot be reviewed or scanned.' }];
}
