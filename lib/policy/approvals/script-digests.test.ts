import { describe, expect, it } from 'vitest';
import type { SegmentDecision } from '../types';
import { scriptCandidates } from './script-digests';

const seg = (...argv: string[]) => ({ argv }) as SegmentDecision;

describe('scriptCandidates', () => {
  it('takes paths and script names from the argv, resolved from the working directory', () => {
    expect(scriptCandidates([seg('sh', 'job.sh'), seg('./run', '-v'), seg('python3', 'tools/gen.py', 'out.txt')], '/workspace/app')).toEqual([
      '/workspace/app/job.sh',
      '/workspace/app/run',
      '/workspace/app/tools/gen.py',
    ]);
  });
  it('leaves out options, plain names and the command name without a slash; keeps at most eight', () => {
    expect(scriptCandidates([seg('python3.py', '-c', 'x'), seg('echo', 'hello')], '/w')).toEqual([]);
    const many = seg('cat', ...Array.from({ length: 20 }, (_, i) => `/tmp/f${i}`));
    expect(scriptCandidates([many], '/')).toHaveLength(8);
  });
});
