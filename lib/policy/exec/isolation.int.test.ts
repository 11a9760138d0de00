// test-phase: pglite only. What it proves happens in the engine or the package manager; its
// database writes are the job and store operations other files run on both engines.
// Isolation is the boundary, on a real engine: two agents, an operator and an admin on one config.
// Agent B runs under the yolo profile, so its attacks really run, through the real gateway exec;
// none of them reaches agent A's files or processes, any person's variables, the admin's exec box,
// or Skilldock's own control (a planted timeout, shell, kill or rc file is never run by Skilldock
// nor by another principal). Under balanced, the generated attack corpus runs nothing at all.
import Docker from 'dockerode';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createToken } from '@/lib/auth/tokens';
import { setEnv } from '@/lib/sandbox/env/store';
import { execInInstance, startInstance } from '@/lib/sandbox/instances/service';
import { setServices } from '@/lib/services';
import { updatePolicySettings } from '@/lib/settings';
import { type AgentsClient, agentsClient } from '@/test/helpers/agents-api';
import { apiUser } from '@/test/helpers/api';
import { describeDocker } from '@/test/helpers/docker';
import { type InstallKit, installActor, startInstallKit } from '@/test/helpers/install-jobs';
import { type PolicyClient, policyClient } from '@/test/helpers/policy-api';
import { ATTACKS } from '../corpus/attacks';

const PLANTED = ['timeout', 'kill', 'find', 'stat', 'tr', 'sed', 'grep', 'bash', 'ps', 'rm', 'mkdir', 'touch'];

describeDocker('one principal per sandbox', () => {
  let kit: InstallKit;
  let gateway: PolicyClient;
  let configId = '';
  let adminSandbox = '';
  const docker = new Docker();
  const people: Record<'admin' | 'operator', Awaited<ReturnType<typeof apiUser>>> = {} as never;
  const exec = (agent: string, command: string, more: Record<string, unknown> = {}) => gateway.exec(agent, { command, ...more });
  /** What a sandbox holds, seen from outside with the image's busybox by absolute path. */
  const look = async (instance: string, script: string) => {
    const ex = await docker.getContainer(instance.split('~')[1]).exec({ Cmd: ['/bin/busybox', 'sh', '-c', script], AttachStdout: true, AttachStderr: true });
    const stream = await ex.start({});
    let out = '';
    stream.on('data', (c: Buffer) => {
      out += c.toString('latin1');
    });
    await new Promise((r) => stream.on('end', r));
    return out;
  };

  beforeAll(async () => {
    kit = await startInstallKit();
    setServices(Promise.resolve(kit.ts.services));
    const { db } = kit.ts.services.database;
    await updatePolicySettings(db, installActor, { approvalMode: '202' });
    people.admin = await apiUser(kit.ts.services, {
      email: 'iso-admin@example.com',
      role: 'admin',
      tokenName: 'a',
      permissions: ['agents.read', 'agents.write'],
    });
    people.operator = await apiUser(kit.ts.services, {
      email: 'iso-operator@example.com',
      role: 'operator',
      tokenName: 'o',
      permissions: ['sandboxes.env.own'],
    });
    const agents: AgentsClient = agentsClient(people.admin.token);
    configId = await kit.newConfig('isolation');
    expect((await agents.create({ id: 'agent-a', name: 'A', sandboxConfigId: configId })).status).toBe(201);
    expect((await agents.create({ id: 'agent-b', name: 'B', sandboxConfigId: configId, riskProfile: 'yolo' })).status).toBe(201);
    const scoped = await createToken(db, people.admin.actor, {
      name: 'gw',
      permissions: ['agents.read', 'agents.exec'],
      expiresInDays: 1,
      agentIds: ['agent-a', 'agent-b'],
    });
    gateway = policyClient(scoped.token);
    for (const who of ['admin', 'operator'] as const) {
      const actor = people[who].actor;
      await setEnv(
        db,
        kit.ts.services.secrets,
        actor,
        { level: 'personal_sandbox', configId, userId: actor.userId ?? '' },
        'PERSONAL_TOKEN',
        `${who}-personal-secret`,
      );
    }
    adminSandbox = (await startInstance(kit.ts.services.sandboxes, people.admin.actor, configId)).id;
  }, 300_000);
  afterAll(async () => {
    await kit?.stop();
  });

  it("gives each agent a sandbox of its own, with no person's variables in it", async () => {
    const a = await exec('agent-a', 'echo a-private > /workspace/a-secret.txt && echo "[$PERSONAL_TOKEN]"');
    expect(a.body, JSON.stringify(a.body)).toMatchObject({ outcome: 'ran', exitCode: 0, stdout: '[]\n' });
    const b = await exec('agent-b', 'echo "[$PERSONAL_TOKEN]"; cat /workspace/a-secret.txt');
    expect(b.body).toMatchObject({ outcome: 'ran', stdout: '[]\n' });
    expect(b.body.exitCode).not.toBe(0);
    expect(new Set([a.body.sandboxId, b.body.sandboxId, adminSandbox]).size).toBe(3);
  });

  it("lets agent B's attacks run in its own sandbox and reach nothing of anyone else's", async () => {
    const plant = PLANTED.map(
      (n) =>
        `/bin/busybox rm -f /bin/${n}; printf '#!/bin/busybox sh\\n/bin/busybox touch /tmp/pwned-${n}\\nexec /bin/busybox ${n} "$@"\\n' > /bin/${n}; /bin/busybox chmod 755 /bin/${n}`,
    );
    const attacks = [
      ...plant,
      "printf 'touch /tmp/pwned-rc\\n' >> /root/.bashrc; printf 'touch /tmp/pwned-profile\\n' >> /etc/profile",
      'cat /proc/*/environ | tr "\\0" "\\n" | grep -i personal',
      'grep -r personal-secret /proc/*/environ /proc/*/task/*/environ',
      'ls /proc/*/fd/0 | head; cat /proc/1/fd/0 </dev/null & sleep 1; kill %1',
      'for p in /proc/[0-9]*; do echo "fake prompt: password?" > $p/fd/1; done 2>/dev/null; true',
      'ls -la /workspace /tmp; cat /workspace/a-secret.txt',
      'setsid sleep 300 & nohup sleep 301 >/dev/null 2>&1 & echo left',
      'install -m 755 /dev/null /usr/local/bin/timeout; mkdir -p /usr/local/bin; cp /bin/busybox /usr/local/bin/sh',
      'touch -d @0 /tmp/old; echo "touch /tmp/pwned-late" > /tmp/run.sh; chmod +x /tmp/run.sh',
      'kill -9 -1',
    ];
    let ran = 0;
    for (const [i, command] of attacks.entries()) {
      const r = await exec('agent-b', command, { timeoutMs: 5000 });
      // The always-on rules still refuse some even under yolo; the plants must really run.
      if (i <= plant.length) expect(r.body.outcome, command).toBe('ran');
      if (r.body.outcome === 'ran') ran++;
      expect(`${r.body.stdout}${r.body.stderr}`, command).not.toMatch(/personal-secret|a-private/);
    }
    expect(ran).toBeGreaterThanOrEqual(plant.length + 5);
    // Agent A and the admin's own sandbox are as they were: no planted program, rc line or marker.
    for (const instance of [(await exec('agent-a', 'true')).body.sandboxId as string, adminSandbox]) {
      expect(await look(instance, 'ls /tmp; cat /root/.bashrc /etc/profile 2>/dev/null; ls -la /bin/timeout /bin/sh')).not.toMatch(/pwned|\/tmp\/pwned-rc/);
    }
    const a = await exec('agent-a', 'cat /workspace/a-secret.txt');
    expect(a.body).toMatchObject({ outcome: 'ran', exitCode: 0, stdout: 'a-private\n' });
    // The admin's exec box, in the admin's own sandbox: their variable, untouched by B.
    const box = await execInInstance(kit.ts.services.sandboxes, people.admin.actor, adminSandbox, { argv: ['sh', '-c', 'echo "[$PERSONAL_TOKEN]"; ls /tmp'] });
    expect(box.stdout).toBe('[admin-personal-secret]\n');

    // Skilldock's own control in B's sandbox ran none of B's planted programs: a timeout, a listing
    // and the write tracking later, the only markers are those B's own commands left.
    const bId = (await exec('agent-b', 'true')).body.sandboxId as string;
    const before = await look(bId, '/bin/busybox ls /tmp');
    const slow = await exec('agent-b', '/bin/busybox sleep 30', { timeoutMs: 1000 });
    expect(slow.body).toMatchObject({ outcome: 'ran', timedOut: true });
    expect(await look(bId, '/bin/busybox ls /tmp')).toBe(before);
    // And nothing B started outlives the exec that started it.
    expect(await look(bId, 'for d in /proc/[0-9]*; do /bin/busybox tr "\\0" " " < $d/cmdline; echo; done')).not.toMatch(/sleep 30[01]/);
  });

  it('runs nothing of the generated attack corpus under balanced', async () => {
    const ran: string[] = [];
    for (const c of ATTACKS) {
      const r = await exec('agent-a', c.command, c.stdin ? { stdin: 'id\n' } : {});
      // Denied, held for approval, or refused for too many pending approvals: never run.
      if (r.status === 429) continue;
      if (r.body.outcome === 'ran') ran.push(c.command);
    }
    expect(ran).toEqual([]);
  }, 300_000);
});
