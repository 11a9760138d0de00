// Runs in every e2e file (vitest setupFiles): the file's shared Chromium goes when the file ends.
import { afterAll } from 'vitest';
import { closeSharedBrowser } from './browser';

afterAll(closeSharedBrowser);
