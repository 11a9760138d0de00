// Runs before each unit file, in that file's environment. Files are not isolated from each other
// (a worker keeps its modules between files, which saves their import), so hooks a helper module
// registered at its own import would hold for the first file only: they are registered here, per file.
// A file rendered in happy-dom gets its tree unmounted after each test and a fetch that refuses.
import { afterEach, beforeEach, vi } from 'vitest';

if (typeof window !== 'undefined') {
  const { cleanup } = await import('@testing-library/react');
  beforeEach(() => {
    vi.stubGlobal('fetch', (url: unknown) => Promise.reject(new Error(`a component test does not fetch (${String(url)}): seed the query instead`)));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });
}
