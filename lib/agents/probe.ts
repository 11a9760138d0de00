// One statement that reads what an agent's effective skills depend on in the database: stamps of the
// agent's row and of the defaults, and — for an agent bound to a sandbox config — a digest of every row its target
// is loaded from (the config, its installs and active image, the env names gating reads, the skill
// entries and the skills settings). Equal digests load equal targets, so a kept target is used as
// long as the digest holds; any write on any replica changes it.
import { eq, sql } from 'drizzle-orm';
import type { AppDb } from '@/db/client';
import { agentDefaults, agents } from '@/db/schema';
import { SharedReads } from '../core/shared-read';
import { notFoundAgent } from './store';

export interface AgentProbe {
  /** Changes with every write of the agent (its revision, and its times: a deleted and re-created agent differs). */
  agentStamp: string;
  sandboxConfigId: string | null;
  defaultsStamp: string;
  /** The digest of the rows the agent's sandbox target is loaded from; null on the host. */
  targetDigest: string | null;
  /**
   * The names of the agent's own variables that reach its execs in its config, as JSON
   * `[level, skillKey, name][]` (gating counts them); null when it has none or runs on the host.
   */
  agentEnv?: string | null;
}

const configId = sql`${agents.sandboxConfigId}`;

const targetDigest = sql<string | null>`case when ${configId} is null then null else md5(concat(
  (select json_build_array(c.name, c.backend, c.config, c.updated_at)::text from sandbox_configs c where c.id = ${configId}),
  '|', (select string_agg(json_build_array(i.skill_key, i.skill_name, i.state, i.version, i.content_hash, i.image_generation, i.previous_ready, i.updated_at)::text, ',' order by i.skill_key)
        from sandbox_skill_installs i where i.config_id = ${configId}),
  '|', (select string_agg(json_build_array(m.id, m.planned_ref, m.image_id)::text, ',' order by m.id)
        from sandbox_images m where m.config_id = ${configId} and m.state = 'active'),
  '|', (select string_agg(json_build_array(e.level, e.skill_key, e.name)::text, ',' order by e.level, e.skill_key, e.name)
        from sandbox_env_vars e where (e.level = 'config' and e.config_id = ${configId}) or e.level = 'workspace_skill'),
  '|', (select string_agg(json_build_array(s.skill_key, s.enabled, s.config, s.updated_at)::text, ',' order by s.skill_key) from skill_entries s),
  '|', (select json_build_array(st.value, st.updated_at)::text from settings st where st.key = 'skills')
)) end`;

const agentEnv = sql<string | null>`(select json_agg(json_build_array(e.level, e.skill_key, e.name) order by e.level, e.skill_key, e.name)::text
  from sandbox_env_vars e where e.user_id = 'agent:' || ${agents.id}
    and ((e.level = 'personal_sandbox' and e.config_id = ${configId}) or e.level = 'personal_skill'))`;

const agentStamp = sql<string>`concat_ws(':', ${agents.revision}, ${agents.createdAt}, ${agents.updatedAt})`;
const defaultsStamp = sql<string>`concat_ws(':', ${agentDefaults.revision}, ${agentDefaults.updatedAt})`;

function statements(db: AppDb) {
  const base = { agentStamp, sandboxConfigId: agents.sandboxConfigId, defaultsStamp };
  const byId = eq(agents.id, sql.placeholder('id'));
  const joined = eq(agentDefaults.id, 'default');
  return {
    host: db.select(base).from(agents).leftJoin(agentDefaults, joined).where(byId).prepare('agent_probe'),
    sandbox: db
      .select({ ...base, targetDigest, agentEnv })
      .from(agents)
      .leftJoin(agentDefaults, joined)
      .where(byId)
      .prepare('agent_probe_sandbox'),
  };
}
/**
 * The probes of one database: its prepared statements, and concurrent probes of one agent sharing
 * one statement (gateways poll hard, one agent by many connections), each still read after its
 * caller arrived, so no write committed before a poll is missed.
 */
export class AgentProbeReads {
  private readonly statements: ReturnType<typeof statements>;
  private readonly shared = new SharedReads<AgentProbe>((key) => this.read(key.slice(2), key[0] === 's'));

  constructor(db: AppDb) {
    this.statements = statements(db);
  }

  /**
   * The stamps of an agent's inputs, in one small row; not found when no such agent exists. The
   * digest of its sandbox target's rows comes with it when `sandbox` (the caller believes the agent
   * is bound to a config), or in a second statement when the agent turns out to be bound to one.
   */
  probe(id: string, sandbox = true): Promise<AgentProbe> {
    return this.shared.get(`${sandbox ? 's' : 'h'}:${id}`);
  }

  private async read(id: string, sandbox: boolean): Promise<AgentProbe> {
    if (sandbox) {
      const [hit] = await this.statements.sandbox.execute({ id });
      if (!hit) throw notFoundAgent(id);
      return { ...hit, defaultsStamp: hit.defaultsStamp ?? '' };
    }
    const [hit] = await this.statements.host.execute({ id });
    if (!hit) throw notFoundAgent(id);
    if (hit.sandboxConfigId) return this.read(id, true);
    return { ...hit, defaultsStamp: hit.defaultsStamp ?? '', targetDigest: null };
  }
}
