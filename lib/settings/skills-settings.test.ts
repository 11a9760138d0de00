import { describe, expect, it } from 'vitest';
import { METADATA_BLOCKS, METADATA_FLAVOURS, SKILLS_SETTINGS_DEFAULTS, skillsSettingsPatch, skillsSettingsSchema } from './skills-settings';

describe('the metadataKeys skills setting', () => {
  it('defaults to every known block, OpenClaw first and Nodmix next', () => {
    expect(SKILLS_SETTINGS_DEFAULTS.metadataKeys).toEqual(['openclaw', 'nodmix', 'clawdbot', 'clawdis', 'moltbot']);
    expect(skillsSettingsSchema.parse({}).metadataKeys).toEqual([...METADATA_BLOCKS]);
  });

  it('the same schema refuses an unknown, a repeated or no block (both doors parse with it)', () => {
    for (const bad of [['openclaw', 'hermes'], ['nodmix', 'nodmix'], []]) {
      expect(skillsSettingsPatch.safeParse({ metadataKeys: bad }).success, JSON.stringify(bad)).toBe(false);
    }
    expect(skillsSettingsPatch.parse({ metadataKeys: ['nodmix', 'clawdbot'] })).toEqual({ metadataKeys: ['nodmix', 'clawdbot'] });
    // A patch without it leaves it alone (no default applied inside the patch).
    expect(skillsSettingsPatch.parse({ watch: false })).toEqual({ watch: false });
  });

  it('each flavour preset is a valid value', () => {
    for (const [id, f] of Object.entries(METADATA_FLAVOURS)) expect(skillsSettingsPatch.safeParse({ metadataKeys: f.keys }).success, id).toBe(true);
    expect(METADATA_FLAVOURS.nodmix.keys[0]).toBe('nodmix');
    expect(METADATA_FLAVOURS.pulsebot.keys).toEqual(['openclaw', 'clawdbot', 'clawdis', 'moltbot']);
  });
});

describe('the import policy skills settings', () => {
  it('default to uploads on, text types only and no binaries', () => {
    expect(SKILLS_SETTINGS_DEFAULTS.allowUploadedArchives).toBe(true);
    expect(SKILLS_SETTINGS_DEFAULTS.allowBinaryFiles).toBe(false);
    expect(SKILLS_SETTINGS_DEFAULTS.allowedBinaryFileTypes).toEqual([]);
    for (const ext of ['md', 'txt', 'json', 'yaml', 'yml', 'toml', 'py', 'js', 'mjs', 'cjs', 'ts', 'sh', 'bash', 'rb', 'pl', 'html', 'css', 'csv', 'svg'])
      expect(SKILLS_SETTINGS_DEFAULTS.allowedFileTypes, ext).toContain(ext);
    for (const ext of ['exe', 'so', 'dll', 'bin', 'zip', 'png']) expect(SKILLS_SETTINGS_DEFAULTS.allowedFileTypes, ext).not.toContain(ext);
  });

  it('take extensions in lower case without the dot, each once', () => {
    expect(skillsSettingsPatch.parse({ allowedBinaryFileTypes: [' PNG ', 'pdf'] })).toEqual({ allowedBinaryFileTypes: ['png', 'pdf'] });
    for (const bad of [['.png'], ['a/b'], ['png', 'PNG'], ['']])
      expect(skillsSettingsPatch.safeParse({ allowedBinaryFileTypes: bad }).success, JSON.stringify(bad)).toBe(false);
    expect(skillsSettingsPatch.safeParse({ allowUploadedArchives: 'no' }).success).toBe(false);
  });
});
