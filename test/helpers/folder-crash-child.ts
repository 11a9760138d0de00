// A child process for crash tests of the skill-folder materialiser: puts a folder whose every file
// holds `version`, and at the named point writes a marker file and waits forever, so the test can
// SIGKILL it there. Usage: node --import tsx <this> '<json>'.
import fs from 'node:fs';
import { folderDigest, putSkillFolder, recoverLeftovers } from '@/lib/gateways/folder/materialise';

const cfg = JSON.parse(process.argv[2] as string) as {
  root: string;
  name: string;
  version: string;
  files: number;
  pauseAt: 'file' | 'staged' | 'old-moved' | 'never';
  marker: string;
};

const pause = async (what: string) => {
  fs.writeFileSync(cfg.marker, what);
  await new Promise(() => undefined);
};

await recoverLeftovers(cfg.root);
const files = Array.from({ length: cfg.files }, (_, i) => ({
  path: `dir${i % 3}/file-${i}.txt`,
  mode: 0o644,
  data: Buffer.from(`${cfg.version}\n`.repeat(64)),
}));
await putSkillFolder(
  cfg.root,
  { name: cfg.name, digest: folderDigest(files), files },
  {
    hooks: {
      afterFile: async (i) => {
        if (cfg.pauseAt === 'file' && i === Math.floor(cfg.files / 2)) await pause('file');
      },
      afterStaged: async () => {
        if (cfg.pauseAt === 'staged') await pause('staged');
      },
      afterOldMoved: async () => {
        if (cfg.pauseAt === 'old-moved') await pause('old-moved');
      },
    },
  },
);
fs.writeFileSync(cfg.marker, 'done');
