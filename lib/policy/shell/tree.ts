// The parse tree as the policy tester shows it: named nodes (and errors), bounded in depth, count
// and text length so a large command cannot produce a huge answer.
import type { Node } from 'web-tree-sitter';
import type { TreeNode } from '../types';

export const TREE_MAX_NODES = 2000;
export const TREE_MAX_DEPTH = 48;
const TEXT_MAX = 160;

export function toTreeNode(root: Node): TreeNode {
  let budget = TREE_MAX_NODES;
  const clip = (s: string) => (s.length > TEXT_MAX ? `${s.slice(0, TEXT_MAX)}…` : s);
  const visit = (n: Node, depth: number): TreeNode => {
    budget--;
    const type = n.isMissing ? `MISSING ${n.type}` : n.type;
    const out: TreeNode = { type, text: clip(n.text), children: [] };
    if (depth >= TREE_MAX_DEPTH) {
      if (n.namedChildCount) out.children.push({ type: '…', text: 'deeper nodes left out', children: [] });
      return out;
    }
    for (const c of n.children) {
      if (!c || (!c.isNamed && !c.isError && !c.isMissing)) continue;
      if (budget <= 0) {
        out.children.push({ type: '…', text: `more than ${TREE_MAX_NODES} nodes; the rest left out`, children: [] });
        break;
      }
      out.children.push(visit(c, depth + 1));
    }
    return out;
  };
  return visit(root, 0);
}
