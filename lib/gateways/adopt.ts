// Adopt: take a gateway's agents, allowlists and skill entries into Skilldock. The preview says
// what will change; the action links the gateway's agents to Skilldock agents of the same id and
// writes the lists, the defaults and the entries (env values and plain keys sealed) in one
// transaction, each write audited, then records what Skilldock now owns in the gateway.
import { eq } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { gateways } from '@/db/schema';
import { AGENT_ID } from '../agents/schema';
import { createAgent, loadAgent, loadDefaults, patchAgent, putDefaults } from '../agents/store';
import { recordAudit } from '../audit/audit';
import type { Actor } from '../auth/actor';
import { publishChange } from '../cluster/invalidation';
import { AppError } from '../core/errors';
import type { SecretBox } from '../secrets/crypto';
import { openEntries, updateEntry } from '../skills/service/entries';
import { type OpenClawModel, readOpenClawModel } from './openclaw/config-model';
import type { GatewaysService } from './service';
import { loadGateway } from './store';

const SKILL_KEY = /^[A-Za-z0-9._-]{1,128}$/;
const sameList = (a: readonly string[] | null, b: readonly string[] | null) =>
  a === null || b === null ? a === b : JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

export interface AdoptPreview {
  agents: { id: string; action: 'create' | 'update' | 'same' | 'skip'; gateway: string[] | null; skilldock: string[] | null; why?: string }[];
  defaults: { action: 'update' | 'same'; gateway: string[] | null; skilldock: string[] | null };
  entries: { key: string; action: 'set' | 'same' | 'skip'; enabled: boolean | null; env: string[]; apiKey: 'plain' | 'reference' | null; why?: string }[];
  notes: string[];
}

async function readGatewayModel(svc: GatewaysService, id: string) {
  const row = await loadGateway(svc.deps.db, id);
  return svc.withAccess(row, async (a) => {
    const read = await a.readConfig();
    const t = svc.syncTarget(row, a);
    return { row, model: readOpenClawModel(read.value, { stateDir: t.stateDir, home: t.home }) };
  });
}

export async function adoptPreview(svc: GatewaysService, id: string, only?: readonly string[]): Promise<AdoptPreview> {
  return previewOf(svc, (await readGatewayModel(svc, id)).model, only);
}

async function previewOf(svc: GatewaysService, model: OpenClawModel, only?: readonly string[]): Promise<AdoptPreview> {
  const db = svc.deps.db;
  const [defs, entries] = await Promise.all([loadDefaults(db), openEntries(db, svc.deps.box)]);
  const notes = [...model.problems.map((p) => `Unreadable in the gateway's config (not taken): ${p}`)];
  const agents: AdoptPreview['agents'] = [];
  for (const a of model.agents) {
    if (only && !only.includes(a.id)) continue;
    if (!AGENT_ID.test(a.id)) {
      agents.push({ id: a.id, action: 'skip', gateway: a.skills, skilldock: null, why: 'not a valid Skilldock agent id (a-z, 0-9, _ and -)' });
      continue;
    }
    const mine = await loadAgent(db, a.id).catch(() => null);
    agents.push({
      id: a.id,
      action: !mine ? 'create' : sameList(mine.skills, a.skills) ? 'same' : 'update',
      gateway: a.skills,
      skilldock: mine?.skills ?? null,
    });
    if (a.legacy) notes.push(`Agent ${a.id} is in the legacy agents.list[]; OpenClaw moves it to agents.entries on its next write.`);
  }
  const out: AdoptPreview['entries'] = [];
  for (const [key, e] of Object.entries(model.entries)) {
    const env = Object.keys(e.env).sort();
    const apiKey = e.apiKey ? (e.apiKey.kind === 'plain' ? 'plain' : 'reference') : null;
    if (!SKILL_KEY.test(key)) {
      out.push({ key, action: 'skip', enabled: e.enabled, env, apiKey, why: 'not a valid skill key' });
      continue;
    }
    const mine = entries.get(key);
    const same =
      mine &&
      mine.enabled === e.enabled &&
      JSON.stringify(mine.env) === JSON.stringify(Object.fromEntries(env.map((n) => [n, e.env[n]]))) &&
      (e.apiKey?.kind !== 'plain' || mine.apiKey === e.apiKey.value);
    out.push({
      key,
      action: same ? 'same' : 'set',
      enabled: e.enabled,
      env,
      apiKey,
      ...(apiKey === 'reference' ? { why: 'the key stays a reference in the gateway' } : {}),
    });
  }
  return {
    agents,
    defaults: { action: sameList(defs.skills, model.defaultsSkills) ? 'same' : 'update', gateway: model.defaultsSkills, skilldock: defs.skills },
    entries: out,
    notes,
  };
}

export async function adopt(svc: GatewaysService, actor: Actor, id: string, only?: readonly string[]) {
  // One read of the gateway: the preview and the values written come from the same config.
  const { model } = await readGatewayModel(svc, id);
  const preview = await previewOf(svc, model, only);
  const linked = preview.agents.filter((a) => a.action !== 'skip').map((a) => a.id);
  if (!linked.length && model.agents.length)
    throw new AppError('validation', 'None of the chosen agents can be adopted.', { details: { agents: preview.agents } });
  const db: AppDb = svc.deps.db;
  const box: SecretBox = svc.deps.box;
  await db.transaction(async (tx) => {
    const tdb = tx as unknown as AppDb;
    const known = async () => new Set<string>();
    for (const a of preview.agents) {
      if (a.action === 'create') await createAgent({ db: tdb, knownSkills: known }, actor, { id: a.id, name: a.id, skills: a.gateway });
      else if (a.action === 'update')
        await patchAgent({ db: tdb, knownSkills: known }, actor, a.id, { revision: (await loadAgent(tdb, a.id)).revision, skills: a.gateway });
    }
    if (preview.defaults.action === 'update')
      await putDefaults({ db: tdb, knownSkills: known }, actor, { revision: (await loadDefaults(tdb)).revision, skills: preview.defaults.gateway });
    for (const e of preview.entries) {
      if (e.action !== 'set') continue;
      const src = model.entries[e.key];
      if (!src) continue;
      await updateEntry(tdb, box, actor, {
        skillKey: e.key,
        ...(src.enabled !== null ? { enabled: src.enabled } : {}),
        env: src.env,
        ...(src.apiKey?.kind === 'plain' ? { apiKey: src.apiKey.value } : {}),
      });
    }
    const owned = {
      entries: preview.entries
        .filter((e) => e.action !== 'skip')
        .map((e) => e.key)
        .sort(),
      defaults: true,
    };
    const row = await loadGateway(tdb, id);
    await tx
      .update(gateways)
      .set({ agentIds: linked.sort(), owned, revision: row.revision + 1, updatedAt: new Date(), updatedBy: actor.label })
      .where(eq(gateways.id, id));
    await recordAudit(tx, actor, {
      action: 'gateway.adopt',
      targetType: 'gateway',
      targetId: id,
      before: { agentIds: row.agentIds },
      after: { agentIds: linked, entries: owned.entries },
    });
  });
  // Entries feed every replica's skill catalog (the agents' rows carry stamps each replica reads).
  if (preview.entries.some((e) => e.action === 'set')) await publishChange(db, 'skills');
  return { adopted: linked, preview };
}
