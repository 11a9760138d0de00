import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { InstallSpec, Os } from '../types';
import { parseSkillMd } from './index';

const ROOT = path.resolve(__dirname, '../../../test/fixtures/skills-real/openclaw');

interface Expected {
  emoji?: string;
  os?: Os[];
  bins?: string[];
  anyBins?: string[];
  env?: string[];
  config?: string[];
  primaryEnv?: string;
  install: InstallSpec[];
}

const brew = (id: string, formula: string, bins: string[], label: string): InstallSpec => ({ id, kind: 'brew', formula, bins, label });
const sherpa = (id: string, os: Os[], tag: string, asset: string, sha256: string, label: string): InstallSpec => ({
  id,
  kind: 'download',
  os,
  url: `https://github.com/k2-fsa/sherpa-onnx/releases/download/${tag}/${asset}`,
  sha256,
  archive: 'tar.bz2',
  extract: true,
  stripComponents: 1,
  targetDir: 'runtime',
  label,
  bins: [],
  packageSpec: `github:k2-fsa/sherpa-onnx@${tag}`,
});

/** Hardcoded from the fixture files' metadata.openclaw blocks. */
const TABLE: Record<string, Expected> = {
  '1password': { emoji: '🔐', bins: ['op'], install: [brew('brew', '1password-cli', ['op'], 'Install 1Password CLI (brew)')] },
  'apple-notes': { emoji: '📝', os: ['darwin'], bins: ['memo'], install: [brew('brew', 'antoniorodr/memo/memo', ['memo'], 'Install memo via Homebrew')] },
  'gh-issues': { bins: ['git', 'gh'], primaryEnv: 'GH_TOKEN', install: [brew('brew', 'gh', ['gh'], 'Install GitHub CLI (brew)')] },
  weather: { emoji: '☔', install: [brew('brew', 'curl', ['curl'], 'Install curl (brew)')] },
  'openai-whisper-api': {
    emoji: '🌐',
    bins: ['curl', 'node'],
    env: ['OPENAI_API_KEY'],
    primaryEnv: 'OPENAI_API_KEY',
    install: [brew('brew', 'curl', ['curl'], 'Install curl (brew)')],
  },
  sag: { emoji: '🔊', bins: ['sag'], primaryEnv: 'ELEVENLABS_API_KEY', install: [brew('brew', 'steipete/tap/sag', ['sag'], 'Install sag (brew)')] },
  'spotify-player': {
    emoji: '🎵',
    anyBins: ['spogo', 'spotify_player'],
    install: [brew('brew', 'spogo', ['spogo'], 'Install spogo (brew)'), brew('brew', 'spotify_player', ['spotify_player'], 'Install spotify_player (brew)')],
  },
  notion: {
    emoji: '📝',
    anyBins: ['ntn', 'curl'],
    primaryEnv: 'NOTION_API_TOKEN',
    install: [{ id: 'node', kind: 'node', package: 'ntn', bins: ['ntn'], label: 'Install official Notion CLI (npm)', packageSpec: 'npm:ntn' }],
  },
  trello: { emoji: '📋', bins: ['curl', 'jq'], env: ['TRELLO_API_KEY', 'TRELLO_TOKEN'], install: [brew('brew', 'jq', ['jq'], 'Install jq (brew)')] },
  tmux: { emoji: '🧵', os: ['darwin', 'linux'], bins: ['tmux'], install: [brew('brew', 'tmux', ['tmux'], 'Install tmux (brew)')] },
  'bear-notes': {
    emoji: '🐻',
    os: ['darwin'],
    bins: ['grizzly'],
    install: [{ id: 'go', kind: 'go', module: 'github.com/tylerwince/grizzly/cmd/grizzly@latest', bins: ['grizzly'], label: 'Install grizzly (go)' }],
  },
  'coding-agent': {
    emoji: '🧩',
    anyBins: ['claude', 'codex', 'opencode'],
    config: ['skills.entries.coding-agent.enabled'],
    install: [
      {
        id: 'node-claude',
        kind: 'node',
        package: '@anthropic-ai/claude-code',
        bins: ['claude'],
        label: 'Install Claude Code CLI (npm)',
        packageSpec: 'npm:@anthropic-ai/claude-code',
      },
      { id: 'node-codex', kind: 'node', package: '@openai/codex', bins: ['codex'], label: 'Install Codex CLI (npm)', packageSpec: 'npm:@openai/codex' },
    ],
  },
  'nano-pdf': {
    emoji: '📄',
    bins: ['nano-pdf'],
    install: [{ id: 'uv', kind: 'uv', package: 'nano-pdf', bins: ['nano-pdf'], label: 'Install nano-pdf (uv)', packageSpec: 'pip:nano-pdf' }],
  },
  mcporter: {
    emoji: '📦',
    bins: ['mcporter'],
    install: [{ id: 'node', kind: 'node', package: 'mcporter', bins: ['mcporter'], label: 'Install mcporter (node)', packageSpec: 'npm:mcporter' }],
  },
  gifgrep: {
    emoji: '🧲',
    bins: ['gifgrep'],
    install: [
      brew('brew', 'steipete/tap/gifgrep', ['gifgrep'], 'Install gifgrep (brew)'),
      { id: 'go', kind: 'go', module: 'github.com/steipete/gifgrep/cmd/gifgrep@latest', bins: ['gifgrep'], label: 'Install gifgrep (go)' },
    ],
  },
  goplaces: {
    emoji: '📍',
    bins: ['goplaces'],
    env: ['GOOGLE_PLACES_API_KEY'],
    primaryEnv: 'GOOGLE_PLACES_API_KEY',
    install: [brew('brew', 'steipete/tap/goplaces', ['goplaces'], 'Install goplaces (brew)')],
  },
  'model-usage': {
    emoji: '📊',
    os: ['darwin', 'linux'],
    bins: ['codexbar'],
    install: [brew('brew-cask', 'steipete/tap/codexbar', ['codexbar'], 'Install CodexBar CLI (Homebrew)')],
  },
  'diagram-maker': { emoji: '🧭', install: [] },
  obsidian: { emoji: '💎', bins: ['obsidian'], install: [] },
  'python-debugpy': { bins: ['python3'], install: [] },
  'sherpa-onnx-tts': {
    emoji: '🔉',
    os: ['darwin', 'linux', 'win32'],
    env: ['SHERPA_ONNX_RUNTIME_DIR', 'SHERPA_ONNX_MODEL_DIR'],
    install: [
      sherpa(
        'download-runtime-macos',
        ['darwin'],
        'v1.13.6',
        'sherpa-onnx-v1.13.6-osx-universal2-shared.tar.bz2',
        '05ed5839bbdfb2da36bb9095961e6b4cfa470d55e29a9795100627dbc36df2ba',
        'Download sherpa-onnx runtime (macOS)',
      ),
      sherpa(
        'download-runtime-linux-x64',
        ['linux'],
        'v1.13.6',
        'sherpa-onnx-v1.13.6-linux-x64-shared.tar.bz2',
        '58cc7d360fdedf9702954e8b585eb400bbee8668484bf25e4461d5d22ba439d8',
        'Download sherpa-onnx runtime (Linux x64)',
      ),
      sherpa(
        'download-runtime-win-x64',
        ['win32'],
        'v1.13.6',
        'sherpa-onnx-v1.13.6-win-x64-shared-MD-Release.tar.bz2',
        '27efaed17a64a40fd3059ac24195dcf4ec0521c999906d288cc5107cbbf4cedc',
        'Download sherpa-onnx runtime (Windows x64)',
      ),
      {
        id: 'download-model-lessac',
        kind: 'download',
        url: 'https://github.com/k2-fsa/sherpa-onnx/releases/download/tts-models/vits-piper-en_US-lessac-high.tar.bz2',
        archive: 'tar.bz2',
        extract: true,
        targetDir: 'models',
        label: 'Download Piper en_US lessac (high)',
        bins: [],
        packageSpec: 'github:k2-fsa/sherpa-onnx@tts-models',
      },
    ],
  },
};

describe('real openclaw skills: metadata.openclaw as written in each file', () => {
  it.each(Object.entries(TABLE))('%s', (dir, want) => {
    const text = fs.readFileSync(path.join(ROOT, dir, 'SKILL.md'), 'utf8');
    const { manifest: m, valid } = parseSkillMd(text, { dirName: dir });
    expect(valid).toBe(true);
    expect(m.name).toBe(dir);
    expect(m.metadataKey).toBe('openclaw');
    expect(m.emoji).toBe(want.emoji);
    expect(m.os).toEqual(want.os ?? []);
    expect(m.requires).toEqual({ bins: want.bins ?? [], anyBins: want.anyBins ?? [], env: want.env ?? [], config: want.config ?? [] });
    expect(m.primaryEnv).toBe(want.primaryEnv);
    expect(m.always).toBe(false);
    expect(m.install).toEqual(want.install);
  });

  it('covers at least the skills named in the brief', () => {
    for (const dir of ['1password', 'gh-issues', 'weather', 'openai-whisper-api', 'sag', 'spotify-player', 'notion', 'trello', 'tmux', 'apple-notes']) {
      expect(TABLE[dir], dir).toBeDefined();
    }
  });
});
