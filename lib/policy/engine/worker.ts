/**
 * The exec policy's worker-thread entry (see pool.ts): decides commands off the event loop, so
 * a hostile command or replay never stalls the process. Imports nothing but the engine, so it runs
 * the same from the TypeScript sources and from its own production bundle.
 */
import { parentPort } from 'node:worker_threads';
import type { Evaluation, EvaluationContext, ProfileRules, TreeNode } from '../types';
import { createPolicyEngine } from './engine';

export type EvalRequest =
  | { id: number; op: 'evaluate'; command: string; rules: ProfileRules; ctx?: EvaluationContext; tree?: boolean }
  | { id: number; op: 'replay'; commands: string[]; current: ProfileRules; proposed: ProfileRules };

export interface Verdict {
  decision: Evaluation['decision'];
  rule: string;
  segment: string;
  reason: string;
}
export interface ReplayItem {
  command: string;
  before: Verdict;
  after: Verdict;
  changed: boolean;
}
export type EvalReply = { id: number; evaluation: Evaluation; tree?: TreeNode } | { id: number; items: ReplayItem[] } | { id: number; failure: string };

const verdict = (e: Evaluation): Verdict => ({ decision: e.decision, rule: e.rule, segment: e.segment, reason: e.reason });

const port = parentPort;
if (port) {
  createPolicyEngine().then(
    (engine) => {
      port.on('message', (req: EvalRequest) => {
        try {
          if (req.op === 'evaluate') {
            const evaluation = engine.evaluate(req.command, req.rules, req.ctx);
            port.postMessage({ id: req.id, evaluation, ...(req.tree ? { tree: engine.tree(req.command) } : {}) } satisfies EvalReply);
          } else {
            const items = req.commands.map((command) => {
              const before = verdict(engine.evaluate(command, req.current));
              const after = verdict(engine.evaluate(command, req.proposed));
              return { command, before, after, changed: before.decision !== after.decision || before.rule !== after.rule };
            });
            port.postMessage({ id: req.id, items } satisfies EvalReply);
          }
        } catch (e) {
          port.postMessage({ id: req.id, failure: e instanceof Error ? e.message : String(e) } satisfies EvalReply);
        }
      });
      port.postMessage({ ready: true });
    },
    (e: unknown) => {
      throw e instanceof Error ? e : new Error(String(e));
    },
  );
}
