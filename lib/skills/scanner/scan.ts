/**
 * scanSkill: every file of a skill — Markdown prose and each fenced block, scripts in
 * every language, other text, binaries and archives — through the rules, with base64/hex payloads
 * decoded and re-scanned. Synchronous and pure: the caller reads the files.
 */
import type { ScanResult, ScanVerdict, SkillManifest } from '../types';
import { binaryFindings, languageOf, languageOfFence, sniffBinary } from './classify';
import { decodePayloads, executedDecodeRules } from './decode';
import { undeclaredEnvRules } from './env';
import { type FileScan, FileScanMemo, fileScanKey } from './file-memo';
import { FindingSink, makeSegment, type Segment, type Spot } from './model';
import { destructiveAndMiningRules, execRules, reverseShellComboRules } from './rules-exec';
import { exfilLineRules, exfilUnitRules } from './rules-exfil';
import { collectHosts, remotePipeRules, suspiciousNetworkRules, undeclaredNetworkRules } from './rules-network';
import { hiddenTextRules, obfuscationRules, promptInjectionRules } from './rules-text';
import { blankComments } from './strip';
import { triggerPassEnabled } from './triggers';

export interface ScanInputFile {
  /** Relative to the skill folder, forward slashes. */
  path: string;
  content: Buffer;
  /** The content's sha256 (hex) when the caller knows it: the file's findings are then kept and reused for the same file. */
  sha256?: string;
}

/** What the skill's metadata declares; scripts using more are reported. */
export interface DeclaredCapabilities {
  env: string[];
  primaryEnv?: string;
  bins: string[];
  homepage?: string;
  installUrls?: string[];
}

/** What a manifest declares, as the scanner compares it with what the files do. */
export function declaredOf(m: SkillManifest): DeclaredCapabilities {
  return {
    env: m.requires.env,
    primaryEnv: m.primaryEnv,
    bins: [...m.requires.bins, ...m.requires.anyBins],
    homepage: m.homepage,
    installUrls: m.install.flatMap((i) => (i.url ? [i.url] : [])),
  };
}

export interface ScanOptions {
  /** More files than this: the scan fails (verdict "error"). Default 500. */
  maxFiles?: number;
  /** A text file larger than this cannot be scanned (verdict "error"). Default 1 MiB. */
  maxFileBytes?: number;
}

/** Any indentation: fences inside list items are indented past CommonMark's 3 spaces. */
const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[ \t]*([^\s`]*)/;

/** The Markdown file as a whole (prose rules) plus one segment per fenced code block. */
function markdownSegments(file: string, text: string): Segment[] {
  const segments: Segment[] = [makeSegment({ file, lang: 'markdown', context: 'markdown', raw: text, firstLine: 1 })];
  const lines = text.split('\n');
  let offset = 0;
  let open: { fence: string; lang: ReturnType<typeof languageOfFence>; line: number; start: number } | null = null;
  const close = (end: number) => {
    if (!open) return;
    const raw = text.slice(open.start, end);
    const seg = makeSegment({ file, lang: open.lang, context: 'markdown-block', raw, code: blankComments(raw, open.lang), firstLine: open.line + 1 });
    // Most blocks hold no comment to blank: their code is the file's, and so is their trigger pass.
    const whole = segments[0];
    if (seg.code === whole.code.slice(open.start, end)) seg.within = { parent: whole, start: open.start };
    segments.push(seg);
    open = null;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const next = offset + line.length + 1;
    if (open) {
      const trimmed = line.trim();
      if (trimmed.startsWith(open.fence) && /^[`~]+$/.test(trimmed) && trimmed[0] === open.fence[0]) close(offset);
    } else {
      const m = FENCE_OPEN.exec(line);
      if (m) open = { fence: m[1], lang: languageOfFence(m[2]), line: i + 1, start: Math.min(next, text.length) };
    }
    offset = next;
  }
  close(text.length);
  return segments;
}

function fileSegments(file: string, text: string): Segment[] {
  const lang = languageOf(file, text);
  if (lang === 'markdown') return markdownSegments(file, text);
  const context = lang === 'text' ? 'text' : 'script';
  const code = blankComments(text, lang);
  const seg = makeSegment({ file, lang, context, raw: text, code, firstLine: 1 });
  return code === text ? [seg] : [seg, makeSegment({ file, lang, context, raw: text, firstLine: 1, inComment: true })];
}

interface ScanState {
  sink: FindingSink;
  declaredEnv: ReadonlySet<string>;
  hosts: Map<string, Spot>;
}

/**
 * Line rules run over Markdown prose (which holds its fenced blocks' text too), scripts, other
 * text and decoded payloads; per-unit rules ("X and a send in the same file") run over scripts,
 * fenced blocks and payloads, where the language is known and the unit is small.
 */
function scanSegment(seg: Segment, state: ScanState): void {
  const { sink } = state;
  const prose = seg.context === 'markdown';
  const block = seg.context === 'markdown-block';
  if (!block) {
    remotePipeRules(seg, sink);
    destructiveAndMiningRules(seg, sink);
    exfilLineRules(seg, sink);
    suspiciousNetworkRules(seg, sink);
    executedDecodeRules(seg, sink);
  }
  execRules(seg, sink);
  if (!prose) {
    reverseShellComboRules(seg, sink);
    exfilUnitRules(seg, sink, state.declaredEnv);
    obfuscationRules(seg, sink);
  }
  // The raw twin of a script adds nothing past this point: these rules read the raw text already.
  if (seg.inComment) return;
  if (!block) hiddenTextRules(seg, sink);
  if (prose || seg.context === 'decoded') promptInjectionRules(seg, sink);
  if (seg.context === 'script') {
    undeclaredEnvRules(seg, state.declaredEnv, sink);
    collectHosts(seg, state.hosts);
  }
  const decoded = block ? null : decodePayloads(seg);
  if (decoded) scanSegment(decoded, state);
}

function verdictOf(sink: FindingSink, failed: boolean): { verdict: ScanVerdict; findings: ScanResult['findings'] } {
  const findings = sink.findings();
  if (failed) return { verdict: 'error', findings };
  if (findings.some((f) => f.severity === 'critical')) return { verdict: 'critical', findings };
  if (findings.some((f) => f.severity === 'warn')) return { verdict: 'warn', findings };
  return { verdict: 'clean', findings };
}

/** This thread's kept file scans (see file-memo.ts). */
// process-wide: this thread's memo of a pure function (a file's scan by its content and what the rules read)
export const fileScans = new FileScanMemo();

/** One file's findings and hosts, on its own sink; throws what the file's scan throws. */
function scanFile(file: ScanInputFile, state: ScanState): void {
  const sniff = sniffBinary(file.content);
  if (sniff) for (const f of binaryFindings(file.path, file.content, sniff)) state.sink.push(f);
  else for (const seg of fileSegments(file.path, file.content.toString('utf8'))) scanSegment(seg, state);
}

export function scanSkill(files: ScanInputFile[], declared: DeclaredCapabilities, opts: ScanOptions = {}): ScanResult {
  const maxFiles = opts.maxFiles ?? 500;
  const maxFileBytes = opts.maxFileBytes ?? 1024 * 1024;
  if (files.length > maxFiles) {
    return { verdict: 'error', findings: [], filesScanned: 0, error: `The skill has ${files.length} files; the scanner reads at most ${maxFiles}.` };
  }
  const state: ScanState = {
    sink: new FindingSink(),
    declaredEnv: new Set([...declared.env, ...(declared.primaryEnv ? [declared.primaryEnv] : [])]),
    hosts: new Map(),
  };
  const settings = `${maxFileBytes}:${triggerPassEnabled() ? 1 : 0}`;
  const errors: string[] = [];
  let filesScanned = 0;
  for (const file of files) {
    if (file.content.length > maxFileBytes && !sniffBinary(file.content)) {
      errors.push(`${file.path} is ${file.content.length} bytes; the scanner reads text files up to ${maxFileBytes} bytes.`);
      continue;
    }
    const key = file.sha256 && fileScanKey(file.sha256, file.path, state.declaredEnv, settings);
    let scan: FileScan | undefined = key ? fileScans.get(key) : undefined;
    if (!scan) {
      const own: ScanState = { sink: new FindingSink(), declaredEnv: state.declaredEnv, hosts: new Map() };
      let failed = false;
      try {
        scanFile(file, own);
      } catch (err) {
        failed = true;
        errors.push(`${file.path} could not be scanned: ${err instanceof Error ? err.message : String(err)}`);
      }
      scan = { findings: own.sink.findings(), hosts: [...own.hosts] };
      if (failed) {
        for (const f of scan.findings) state.sink.push(f);
        continue;
      }
      if (key) fileScans.set(key, scan);
    }
    for (const f of scan.findings) state.sink.push(f);
    for (const [host, spot] of scan.hosts) if (!state.hosts.has(host)) state.hosts.set(host, spot);
    filesScanned++;
  }
  undeclaredNetworkRules(state.hosts, declared, state.sink);
  const { verdict, findings } = verdictOf(state.sink, errors.length > 0);
  return { verdict, findings, filesScanned, ...(errors.length ? { error: errors.join(' ') } : {}) };
}
