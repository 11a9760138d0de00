// An import job's title names what is imported, whatever the source.
import { describe, expect, it } from 'vitest';
import { importTitle, skillImportJob } from './jobs';

const title = (input: unknown) => importTitle(skillImportJob.params.parse(input));

describe('skill import titles', () => {
  it('names the uploaded file, the ClawHub ref, the repository or the URL’s file', () => {
    expect(title({ source: { kind: 'upload', uploadId: 'a'.repeat(24), filename: 'brand-guidelines.zip' } })).toBe('Import brand-guidelines.zip');
    expect(title({ source: { kind: 'clawhub', ref: '@owner/slug@1.2.0' } })).toBe('Import @owner/slug@1.2.0 from ClawHub');
    expect(title({ source: { kind: 'git', url: 'https://github.com/acme/skills.git', ref: 'v2', subdir: 'pdf' } })).toBe('Import skills@v2/pdf from git');
    expect(title({ source: { kind: 'url', url: 'https://example.com/dl/weather.tar.gz' } })).toBe('Import weather.tar.gz from example.com');
  });

  it('says an upload without a known name is an upload, and names the slug it installs under', () => {
    expect(title({ source: { kind: 'upload', uploadId: 'a'.repeat(24) }, slug: 'brand' })).toBe('Import an uploaded archive as brand');
  });
});
