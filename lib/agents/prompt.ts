// The skills catalog an agent's prompt carries, in the gateway's exact layout: three header lines,
// an empty line, then <available_skills> with one <skill> block per skill in name order; the five
// XML characters escaped; a home-directory prefix shown as `~/`. Its cost is the length of the
// rendered string itself. Over budget it falls back to the compact form (name and location only),
// then to the most skills that fit, behind a note saying how many were included.

export interface PromptSkill {
  name: string;
  description: string;
  /** The absolute path of the skill's SKILL.md. */
  location: string;
}

export interface PromptBudget {
  maxSkills: number;
  maxChars: number;
}

export const DEFAULT_BUDGET: PromptBudget = { maxSkills: 150, maxChars: 18_000 };

export type PromptForm = 'full' | 'compact';

export interface RenderedCatalog {
  text: string;
  chars: number;
  /** About four characters a token. */
  tokens: number;
  form: PromptForm;
  /** Names in the prompt, in order. */
  included: string[];
  /** Names cut by the budget, in order. */
  cut: string[];
  truncated: boolean;
}

const HEADER_1 = '\n\nThe following skills provide specialized instructions for specific tasks.';
const HEADER_2 = (form: PromptForm) => `Use the read tool to load a skill's file when the task matches its ${form === 'full' ? 'description' : 'name'}.`;
const HEADER_3 =
  'When a skill file references a relative path, resolve it against the skill directory (parent of SKILL.md / dirname of the path) and use that absolute path in tool commands.';

const XML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => XML[c]);
}

/** `/home/ada/skills/x/SKILL.md` with home `/home/ada` → `~/skills/x/SKILL.md`. */
export function displayLocation(location: string, home: string | null): string {
  if (!home || home === '/') return location;
  const h = home.endsWith('/') ? home.slice(0, -1) : home;
  return location === h ? '~' : location.startsWith(`${h}/`) ? `~/${location.slice(h.length + 1)}` : location;
}

export const byName = (a: PromptSkill, b: PromptSkill): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/** The catalog of exactly these skills, in name order; empty when there are none. */
export function renderSkills(skills: readonly PromptSkill[], form: PromptForm, home: string | null): string {
  if (!skills.length) return '';
  const lines = [HEADER_1, HEADER_2(form), HEADER_3, '', '<available_skills>'];
  for (const s of [...skills].sort(byName)) {
    lines.push('  <skill>', `    <name>${escapeXml(s.name)}</name>`);
    if (form === 'full') lines.push(`    <description>${escapeXml(s.description)}</description>`);
    lines.push(`    <location>${escapeXml(displayLocation(s.location, home))}</location>`, '  </skill>');
  }
  lines.push('</available_skills>');
  return lines.join('\n');
}

export const truncationNote = (included: number, total: number): string =>
  `⚠️ Skills truncated: included ${included} of ${total}. The agent's budget planner in Skilldock shows which were cut.`;

const tokensOf = (chars: number) => Math.ceil(chars / 4);

/** One skill's lines in each form, escaped once; a catalog is its blocks joined under the header. */
export interface PromptBlock {
  name: string;
  full: string;
  compact: string;
}

export function promptBlock(s: PromptSkill, home: string | null): PromptBlock {
  const name = `    <name>${escapeXml(s.name)}</name>`;
  const location = `    <location>${escapeXml(displayLocation(s.location, home))}</location>`;
  return {
    name: s.name,
    full: ['  <skill>', name, `    <description>${escapeXml(s.description)}</description>`, location, '  </skill>'].join('\n'),
    compact: ['  <skill>', name, location, '  </skill>'].join('\n'),
  };
}

const headOf = (form: PromptForm) => [HEADER_1, HEADER_2(form), HEADER_3, '', '<available_skills>'].join('\n');
const HEAD = { full: headOf('full'), compact: headOf('compact') };
const TAIL = '</available_skills>';

/**
 * The prompt under a budget from blocks already in name order: the full form when it fits, else
 * the compact form, else the first skills that fit in the compact form behind the truncation note
 * (binary search over the blocks' lengths; the text is built once, for the answer).
 */
export function renderBlocks(sorted: readonly PromptBlock[], budget: PromptBudget): RenderedCatalog {
  const capped = sorted.slice(0, Math.max(0, budget.maxSkills));
  const prefix = { full: [0], compact: [0] };
  for (const b of capped) {
    prefix.full.push(prefix.full[prefix.full.length - 1] + b.full.length + 1);
    prefix.compact.push(prefix.compact[prefix.compact.length - 1] + b.compact.length + 1);
  }
  const noteLength = (n: number) => (n < sorted.length ? truncationNote(n, sorted.length).length + 1 : 0);
  const lengthOf = (n: number, form: PromptForm) => (n === 0 ? 0 : HEAD[form].length + 1 + prefix[form][n] + TAIL.length) + noteLength(n);
  const build = (n: number, form: PromptForm): RenderedCatalog => {
    const blocks = capped.slice(0, n);
    const body = n === 0 ? '' : `${HEAD[form]}\n${blocks.map((b) => b[form]).join('\n')}\n${TAIL}`;
    const text = n < sorted.length ? `${truncationNote(n, sorted.length)}\n${body}` : body;
    return {
      text,
      chars: text.length,
      tokens: tokensOf(text.length),
      form,
      included: blocks.map((b) => b.name),
      cut: sorted.slice(n).map((b) => b.name),
      truncated: n < sorted.length,
    };
  };
  for (const form of ['full', 'compact'] as const) if (lengthOf(capped.length, form) <= budget.maxChars) return build(capped.length, form);
  let lo = 0;
  let hi = capped.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (lengthOf(mid, 'compact') <= budget.maxChars) lo = mid;
    else hi = mid - 1;
  }
  return build(lo, 'compact');
}

/** The prompt of these skills under a budget (see renderBlocks). */
export function renderCatalog(skills: readonly PromptSkill[], budget: PromptBudget, home: string | null): RenderedCatalog {
  return renderBlocks(
    [...skills].sort(byName).map((s) => promptBlock(s, home)),
    budget,
  );
}

/** What each skill adds to the full and the compact form: the length its block adds to a rendered catalog. */
export function skillCosts(skills: readonly PromptSkill[], home: string | null): { name: string; full: number; compact: number }[] {
  // Blocks add up, so a skill's block is the catalog of it twice less the catalog of it once.
  const added = (s: PromptSkill, form: PromptForm) => renderSkills([s, s], form, home).length - renderSkills([s], form, home).length;
  return [...skills].sort(byName).map((s) => ({ name: s.name, full: added(s, 'full'), compact: added(s, 'compact') }));
}

/** The header and closing lines of a non-empty catalog. */
export function baseCost(form: PromptForm, home: string | null): number {
  const s: PromptSkill = { name: 'x', description: 'x', location: 'x' };
  return 2 * renderSkills([s], form, home).length - renderSkills([s, s], form, home).length;
}
