// State carried from one segment to the next inside one command line: the working directory
// (`cd src && ./x.sh` runs /workspace/src/x.sh; `cd / && cat etc/passwd` reads /etc/passwd) and
// the files the line itself writes (`cat > x.sh … && sh x.sh` is write-then-run too).
import path from 'node:path';
import type { Segment } from './wrappers';
import { baseName } from './wrappers';

export interface Walk {
  cwd: string;
  written: ReadonlySet<string> | undefined;
  after(seg: Segment): void;
}

export function createWalk(cwd: string, home: string, writtenFiles: ReadonlySet<string> | undefined): Walk {
  let written: Set<string> | undefined;
  const resolve = (p: string, base: string) => path.posix.resolve(base, p === '~' || p.startsWith('~/') ? home + p.slice(1) : p);
  const walk: Walk = {
    cwd,
    written: writtenFiles,
    after(seg) {
      const name = seg.argv.length ? baseName(seg.argv[0]) : '';
      const writes = seg.redirects.filter((r) => r.target && r.body === undefined && r.op.includes('>') && !/^>&$/.test(r.op)).map((r) => r.target!);
      if (name === 'tee') writes.push(...seg.words.slice(1).filter((w) => !w.value.startsWith('-')));
      for (const w of writes) {
        if (w.dynamic || w.value === '/dev/null') continue;
        written ??= new Set(writtenFiles);
        written.add(resolve(w.value, walk.cwd));
        walk.written = written;
      }
      if (name === 'cd' || name === 'pushd') {
        const arg = seg.words.slice(1).find((w) => !w.value.startsWith('-') || w.value === '-');
        // Somewhere only known at run time: any folder at all.
        if (!arg) walk.cwd = home;
        else walk.cwd = arg.dynamic || arg.expands || arg.value === '-' ? '/' : resolve(arg.value, walk.cwd);
      }
    },
  };
  return walk;
}
