import { expect, it } from 'vitest';
import { stripTags, trimEndChar } from './text';

it('trims a trailing run without touching the rest', () => {
  expect(trimEndChar('/a/b///', '/')).toBe('/a/b');
  expect(trimEndChar(`x${'/'.repeat(100_000)}y`, '/')).toBe(`x${'/'.repeat(100_000)}y`);
});

it('replaces tags with spaces and keeps text', () => {
  expect(stripTags('<h1>Bad gateway</h1><p>nginx</p>')).toBe(' Bad gateway  nginx ');
  expect(stripTags('a < b')).toBe('a ');
  expect(stripTags('<'.repeat(50_000))).toBe('');
});
