/**
 * The inventory: every copy of every name, the winner marked and the shadowed copies
 * kept. The winner is the copy of the highest-precedence source (SOURCE_ORDER); between copies of
 * the same source (several extra dirs, or two folders of one root declaring the same name) the
 * one that comes first in `copies` wins — discoverSkills returns copies in root precedence order,
 * then by relDir. Invalid copies take part under their fallback name (the folder name): a broken
 * workspace copy still shadows a managed one, visibly, rather than silently falling back.
 */
import { type SkillCopy, SOURCE_ORDER } from '../types';

export interface InventoryEntry {
  name: string;
  winner: SkillCopy;
  /** Lower-precedence copies of the same name, highest precedence first. */
  shadowed: SkillCopy[];
}

export function sourceRank(copy: SkillCopy): number {
  return SOURCE_ORDER.indexOf(copy.source);
}

export function buildInventory(copies: SkillCopy[]): InventoryEntry[] {
  const byName = new Map<string, { copy: SkillCopy; index: number }[]>();
  copies.forEach((copy, index) => {
    const name = copy.parsed.manifest.name;
    const list = byName.get(name);
    if (list) list.push({ copy, index });
    else byName.set(name, [{ copy, index }]);
  });
  const entries: InventoryEntry[] = [];
  for (const [name, list] of byName) {
    list.sort((a, b) => sourceRank(a.copy) - sourceRank(b.copy) || a.index - b.index);
    entries.push({ name, winner: list[0].copy, shadowed: list.slice(1).map((x) => x.copy) });
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries;
}
