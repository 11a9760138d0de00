import { describe, expect, it } from 'vitest';
import { fromForm as githubFromForm, issueText as githubIssue, toForm as githubToForm } from '@/components/settings/github-settings-form';
import { fromForm as runtimeFromForm, issueMessage as runtimeIssue } from '@/components/settings/runtime-settings-form';
import { fromForm as terminalFromForm, issueText as terminalIssue, toForm as terminalToForm } from '@/components/settings/terminal-settings-form';
import { fromForm as skillsFromForm, toForm as skillsToForm } from '@/components/skills/settings-form';
import { skillsSettingsSchema } from '@/lib/settings/skills-settings';
import { terminalSettingsSchema } from '@/lib/settings/terminal-settings';
import { field, formCodec, itemsOf, NOT_A_NUMBER, wholeNumberOf, wordsOf } from './field-codecs';

describe('settings field codecs', () => {
  it('turns typed text into values: whole numbers, items per line, words', () => {
    expect(wholeNumberOf(' 42 ')).toBe(42);
    expect(wholeNumberOf('-3')).toBe(-3);
    expect(wholeNumberOf('4.5')).toBe('4.5');
    expect(wholeNumberOf(' ten ')).toBe('ten');
    expect(itemsOf(' a \n\n b,c ')).toEqual(['a', 'b,c']);
    expect(itemsOf(' a \n\n b,c ', true)).toEqual(['a', 'b', 'c']);
    expect(wordsOf('jq,  curl git')).toEqual(['jq', 'curl', 'git']);
  });

  it('round-trips a table of fields, and names only number fields holding text', () => {
    const codec = formCodec({ n: field.wholeNumber, on: field.flag, t: field.text, l: field.lines(), w: field.words(', ') });
    const form = codec.toForm({ n: 5, on: true, t: 'x', l: ['a', 'b'], w: ['p', 'q'] });
    expect(form).toEqual({ n: '5', on: true, t: 'x', l: 'a\nb', w: 'p, q' });
    expect(codec.fromForm({ ...form, t: '  y  ' })).toEqual({ n: 5, on: true, t: 'y', l: ['a', 'b'], w: ['p', 'q'] });
    const raw = codec.fromForm({ ...form, n: 'five', t: 'text' });
    expect(codec.notANumber('n', raw)).toBe(true);
    expect(codec.notANumber('t', raw)).toBe(false);
    expect(codec.notANumber('missing', raw)).toBe(false);
  });

  it('the terminal form gives back what it was given, and says a typed word is not a number', () => {
    const stored = terminalSettingsSchema.parse({});
    expect(terminalSettingsSchema.parse(terminalFromForm(terminalToForm(stored)))).toEqual(stored);
    const raw = terminalFromForm({ ...terminalToForm(stored), graceSeconds: 'soon' });
    expect(terminalIssue('graceSeconds', 'Expected number', raw)).toBe(NOT_A_NUMBER);
    expect(terminalIssue('maxPerUser', 'Too big', raw)).toBe('Too big');
  });

  it('the GitHub form splits owners and names the owner an issue is about', () => {
    const form = githubToForm({
      apiBaseUrl: 'https://api.github.com',
      downloadHosts: ['github.com'],
      allowedOwners: ['acme'],
      maxAssetMb: 200,
      requireChecksum: true,
      retainedVersions: 3,
      smokeTimeoutSeconds: 10,
      tokenSource: 'setting',
    } as never);
    expect(form.allowedOwners).toBe('acme');
    const raw = githubFromForm({ ...form, allowedOwners: 'acme, bad owner!', maxAssetMb: 'lots' });
    expect(raw.allowedOwners).toEqual(['acme', 'bad', 'owner!']);
    expect(githubIssue(['maxAssetMb'], 'Expected number', raw)).toBe(NOT_A_NUMBER);
    expect(githubIssue(['allowedOwners', 2], 'Not an owner name', raw)).toBe('“owner!”: Not an owner name');
  });

  it('the runtime form names the line an issue is about and a number typed as text', () => {
    const raw = runtimeFromForm({
      pipIndexUrl: ' https://pypi.example/simple ',
      pipExtraIndexUrls: 'https://a.example\nnot a url',
      pipFindLinks: '',
      pipNoIndex: false,
      npmRegistry: '',
      binaries: 'jq curl',
      aptAutoUpdate: true,
      updateTtlMinutes: 'hour',
      updateCheckIntervalHours: '6',
    });
    expect(raw.pipIndexUrl).toBe('https://pypi.example/simple');
    expect(raw.binaries).toEqual(['jq', 'curl']);
    expect(runtimeIssue(['pipExtraIndexUrls', 1], 'Invalid URL', raw)).toBe('Line 2 (not a url): Invalid URL');
    expect(runtimeIssue(['binaries', 0], 'Bad name', raw)).toBe('“jq”: Bad name');
    expect(runtimeIssue(['updateTtlMinutes'], 'Expected number', raw)).toBe(NOT_A_NUMBER);
    expect(runtimeIssue(['updateCheckIntervalHours'], 'Too small', raw)).toBe('Too small');
  });

  it('the skills form round-trips, strips the dot of a file type and keeps the bundled allowlist and config apart', () => {
    const stored = skillsSettingsSchema.parse({});
    const form = skillsToForm(stored);
    expect(skillsFromForm(form, stored)).toEqual({ errors: {}, patch: {} });
    const edited = skillsFromForm(
      { ...form, allowedFileTypes: '.PNG, md', allowAllBundled: false, allowBundled: 'weather\ngithub', watchDebounceMs: 'soon' },
      stored,
    );
    expect(edited.errors).toEqual({ watchDebounceMs: NOT_A_NUMBER });
    const ok = skillsFromForm({ ...form, allowedFileTypes: '.png, md', allowAllBundled: false, allowBundled: 'weather\ngithub' }, stored);
    expect(ok.errors).toEqual({});
    expect(ok.patch).toMatchObject({ allowedFileTypes: ['png', 'md'], allowBundled: ['weather', 'github'] });
    expect(skillsFromForm({ ...form, config: '{not json' }, stored).errors.config).toMatch(/^Not valid JSON: /);
  });
});
