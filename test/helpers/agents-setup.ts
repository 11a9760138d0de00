// A test service with skills written into a real workspace root, an admin token for the agents and
// skills routes, and the clients to call them; shared by the agents integration tests.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { POST as refreshRoute } from '@/app/api/v1/skills/refresh/route';
import { setServices } from '@/lib/services';
import { type AgentsClient, agentsClient } from './agents-api';
import { apiUser } from './api';
import { startTestServices, type TestServices } from './services';
import { type SkillsClient, skillMd, skillsClient, writeSkill } from './skills-api';

export interface AgentsSetup {
  ts: TestServices;
  tmp: string;
  /** The workspace skills root. */
  root: string;
  api: AgentsClient;
  skills: SkillsClient;
  adminToken: string;
  /** Writes (or rewrites) a skill into the workspace root. */
  write(name: string, description: string, opts?: { metadata?: Record<string, unknown>; extra?: string; files?: Record<string, string> }): void;
  refresh(): Promise<void>;
  stop(): Promise<void>;
}

export async function startAgentsSetup(prefix: string): Promise<AgentsSetup> {
  const tmp = fs.mkdtempSync(path.join(process.env.SKILLDOCK_TEST_TMPDIR || os.tmpdir(), `skilldock-${prefix}-`));
  const ts = await startTestServices({ worker: false });
  setServices(Promise.resolve(ts.services));
  const { token } = await apiUser(ts.services, {
    email: `${prefix}-admin@example.com`,
    role: 'admin',
    tokenName: prefix,
    permissions: ['agents.read', 'agents.write', 'skills.read', 'skills.write'],
  });
  const skills = skillsClient(ts.services, token);
  const ws = path.join(tmp, 'ws');
  const settings = await skills.settings({ workspaceDir: ws, personalDir: path.join(tmp, 'personal') });
  if (settings.status !== 200) throw new Error(`skills settings answered ${settings.status}: ${JSON.stringify(settings.body)}`);
  const root = path.join(ws, 'skills');
  fs.mkdirSync(root, { recursive: true });
  return {
    ts,
    tmp,
    root,
    api: agentsClient(token),
    skills,
    adminToken: token,
    write(name, description, opts = {}) {
      const md = skillMd(name, description, { metadata: opts.metadata });
      const withExtra = opts.extra ? md.replace(/\n---\n/, `\n${opts.extra}\n---\n`) : md;
      writeSkill(root, name, { 'SKILL.md': withExtra, ...opts.files });
    },
    async refresh() {
      const r = await skills.post(refreshRoute, '/api/v1/skills/refresh');
      if (r.status !== 200) throw new Error(`refresh answered ${r.status}`);
    },
    async stop() {
      await ts.stop();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
