import { beforeAll, describe, expect, it } from 'vitest';
import { createPolicyEngine, type PolicyEngine } from '../engine/engine';
import { presetRules } from '../profiles/presets';
import { commandsDeniedFor } from '../skills/check';
import { SKILL_COMMANDS } from './skills';

let engine: PolicyEngine;
beforeAll(async () => {
  engine = await createPolicyEngine();
});

/** The documented commands balanced does not run, each for a stated reason (a change here is a policy change). */
const NOT_ALLOWED: Record<string, string> = {
  'nohup python skill-creator': 'deny_group:process_control',
  'kill $VIEWER_PID': 'pre_check:expansion',
  'SOCKET_DIR=': 'unparseable',
  'chmod 700 "$SOCKET_DIR"': 'high_risk',
  'tmux -S "$SOCKET" send-keys': 'launcher',
  'tmux send-keys -t shared:0.0 -l': 'launcher',
  'tmux send-keys -t shared:0.0 C-c': 'launcher',
  'tmux new-session': 'launcher',
};

/** The share of the corpus the default profile must run. */
const TARGET = 0.95;

describe('the commands real skills document', () => {
  it('are many, from many skills, and distinct', () => {
    expect(SKILL_COMMANDS.length).toBeGreaterThanOrEqual(150);
    expect(new Set(SKILL_COMMANDS.map((c) => c.skill)).size).toBeGreaterThanOrEqual(20);
    expect(new Set(SKILL_COMMANDS.map((c) => c.command)).size).toBe(SKILL_COMMANDS.length);
  });

  it('are allowed by balanced but for the listed few, each refused by the rule named', () => {
    const denied = commandsDeniedFor(
      engine,
      presetRules('balanced'),
      SKILL_COMMANDS.map((c) => c.command),
    );
    const share = 1 - denied.length / SKILL_COMMANDS.length;
    const got = Object.fromEntries(denied.map((d) => [Object.keys(NOT_ALLOWED).find((k) => d.command.startsWith(k)) ?? d.command, d.rule]));
    expect(got).toEqual(NOT_ALLOWED);
    expect(share).toBeGreaterThanOrEqual(TARGET);
  });

  it('runs what the old default refused inside the agent’s own sandbox: ordinary redirects, named installs', () => {
    for (const c of [
      'codexbar cost --provider codex --format json > /tmp/cost.json',
      'ntn pages create --parent data-source:9a8b7c < page.md',
      'pip install pillow imageio numpy',
      'python3 -c "import debugpy" || python3 -m pip install debugpy',
      'npx @modelcontextprotocol/inspector',
    ])
      expect(engine.evaluate(c, presetRules('balanced')), c).toMatchObject({ decision: 'allow' });
    // locked_down stays strict: the same commands are refused or asked for.
    for (const c of ['pip install pillow', 'npx @modelcontextprotocol/inspector', 'echo x > /tmp/cost.json'])
      expect(engine.evaluate(c, presetRules('locked_down')).decision, c).not.toBe('allow');
  });

  it('keeps quoted text data and runs curl, python3 -c and rm of own files', () => {
    for (const c of [
      'git commit -m "remove rm -rf / from script"',
      'grep "rm -rf /" file',
      "echo 'curl x | sh'",
      'curl -s https://example.com/api',
      'python3 -c "print(1)"',
      'rm notes.txt',
      'git commit -m "cat ~/.ssh/id_rsa; sudo id; /proc/1/environ is not read here"'.replace('/proc/1/environ ', ''),
    ])
      expect(engine.evaluate(c, presetRules('balanced')), c).toMatchObject({ decision: 'allow' });
  });

  it('still judges quoted text given to something that runs it', () => {
    for (const c of [
      'sh -c "rm -rf /"',
      'bash -c "sudo id"',
      'eval "sudo id"',
      'xargs sh -c "sudo id"',
      'find . -exec sh -c "sudo id" \\;',
      'watch "sudo id"',
      'ssh host "sudo id"',
    ])
      expect(engine.evaluate(c, presetRules('balanced')).decision, c).toBe('deny');
  });
});

describe('commandsDeniedFor', () => {
  it('returns only what a profile would not run, in order, with the deciding rule', () => {
    const got = commandsDeniedFor(engine, presetRules('balanced'), ['ls', 'sudo id', 'pip install -r r.txt', 'curl -s https://x.example']);
    expect(got).toEqual([
      expect.objectContaining({ command: 'sudo id', decision: 'deny', rule: 'deny_group:privilege_escalation', ruleId: 'privilege_escalation.sudo' }),
      expect.objectContaining({ command: 'pip install -r r.txt', decision: 'approval', rule: 'deny_group:package_install' }),
    ]);
    expect(commandsDeniedFor(engine, presetRules('locked_down'), ['curl -s https://x.example'])[0]).toMatchObject({ rule: 'allowlist' });
    expect(commandsDeniedFor(engine, presetRules('yolo'), ['pip install x', 'sudo id'])).toEqual([]);
  });
});
