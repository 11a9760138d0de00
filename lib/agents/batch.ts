// Allowlist edits for many agents at once (the matrix): a what-if that says per agent which skills it
// gains and loses and what its prompt costs before and after, and a save that applies every change
// in one transaction (one audit record per agent changed) or none of them when any is stale.
import { inArray } from 'drizzle-orm';
import { agents } from '@/db/schema';
import type { Actor } from '../auth/actor';
import { AppError } from '../core/errors';
import { normalizeList } from './allowlist';
import type { AllowlistChange } from './schema';
import { type AgentsDeps, effectiveContext } from './service';
import { type AgentRow, notFoundAgent, patchedFields, warningsFor, writeAgent } from './store';

function byAgent(changes: readonly AllowlistChange[]): Map<string, AllowlistChange> {
  const out = new Map<string, AllowlistChange>();
  for (const c of changes) {
    if (out.has(c.agentId))
      throw new AppError('validation', `Agent "${c.agentId}" appears twice in the batch; send one change per agent.`, {
        issues: [{ path: 'changes', message: `duplicate agent ${c.agentId}` }],
      });
    out.set(c.agentId, c);
  }
  return out;
}

async function rowsOf(deps: AgentsDeps, ids: string[]): Promise<Map<string, AgentRow>> {
  const rows = await deps.db.select().from(agents).where(inArray(agents.id, ids));
  const map = new Map(rows.map((r) => [r.id, r]));
  const missing = ids.find((id) => !map.has(id));
  if (missing) throw notFoundAgent(missing);
  return map;
}

const sameList = (a: readonly string[] | null, b: readonly string[] | null) => JSON.stringify(a) === JSON.stringify(b);

const fields = (row: AgentRow, c: AllowlistChange) =>
  patchedFields(row, { skills: c.skills, ...(c.denySkills === undefined ? {} : { denySkills: c.denySkills }) });

export async function previewAllowlists(deps: AgentsDeps, changes: readonly AllowlistChange[]) {
  const wanted = byAgent(changes);
  const rows = await rowsOf(deps, [...wanted.keys()]);
  const ctx = await effectiveContext(deps);
  const known = new Set(ctx.snapshot.skills.map((s) => s.name));
  const items = [];
  for (const [id, c] of wanted) {
    const row = rows.get(id)!;
    const next = { ...row, ...fields(row, c) };
    const [before, after] = await Promise.all([ctx.of(row), ctx.of(next)]);
    const had = new Set(before.skills.map((s) => s.name));
    const has = new Set(after.skills.map((s) => s.name));
    items.push({
      agentId: id,
      revision: row.revision,
      stale: row.revision !== c.revision,
      changed: !sameList(row.skills, next.skills) || !sameList(row.denySkills, next.denySkills),
      gained: [...has].filter((n) => !had.has(n)).sort(),
      lost: [...had].filter((n) => !has.has(n)).sort(),
      prompt: {
        before: { chars: before.prompt.chars, tokens: before.prompt.tokens, skills: before.skills.length },
        after: { chars: after.prompt.chars, tokens: after.prompt.tokens, skills: after.skills.length, truncated: after.prompt.truncated },
      },
      warnings: warningsFor([next.skills, next.denySkills], known),
    });
  }
  return { items };
}

export async function saveAllowlists(deps: AgentsDeps, actor: Actor, changes: readonly AllowlistChange[]) {
  const wanted = byAgent(changes);
  const ids = [...wanted.keys()];
  const known = new Set((await deps.snapshot()).skills.map((s) => s.name));
  const saved = await deps.db.transaction(async (tx) => {
    const rows = new Map((await tx.select().from(agents).where(inArray(agents.id, ids)).for('update')).map((r) => [r.id, r]));
    const out: { agentId: string; revision: number; changed: boolean }[] = [];
    const stale = ids.filter((id) => rows.has(id) && rows.get(id)!.revision !== wanted.get(id)!.revision);
    const missing = ids.find((id) => !rows.has(id));
    if (missing) throw notFoundAgent(missing);
    if (stale.length)
      throw new AppError(
        'conflict',
        `${stale.length} agent(s) changed since this edit started (${stale.slice(0, 10).join(', ')}); nothing was saved. Reload and edit again.`,
        {
          details: { stale: stale.map((id) => ({ agentId: id, revision: rows.get(id)!.revision, sent: wanted.get(id)!.revision })) },
        },
      );
    for (const [id, c] of wanted) {
      const row = rows.get(id)!;
      const f = fields(row, c);
      if (sameList(row.skills, f.skills) && sameList(row.denySkills, f.denySkills)) {
        out.push({ agentId: id, revision: row.revision, changed: false });
        continue;
      }
      const after = await writeAgent(tx, actor, row, c.revision, f);
      out.push({ agentId: id, revision: after.revision, changed: true });
    }
    return out;
  });
  const warnings = warningsFor(
    [...wanted.values()].flatMap((c) => [c.skills && normalizeList(c.skills), c.denySkills ? normalizeList(c.denySkills) : null]),
    known,
  );
  return { items: saved, changed: saved.filter((s) => s.changed).length, warnings };
}
