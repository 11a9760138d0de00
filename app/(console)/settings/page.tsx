import type { Metadata } from 'next';
import { MyEnvCard } from '@/components/sandboxes/my-env-card';
import { GithubSettingsCard } from '@/components/settings/github-settings-card';
import { InstanceCard } from '@/components/settings/instance-card';
import { PasswordCard } from '@/components/settings/password-card';
import { RuntimeSettingsCard } from '@/components/settings/runtime-settings-card';
import { SettingsNav } from '@/components/settings/settings-nav';
import { SkillsSettingsCard } from '@/components/settings/skills-settings-card';
import { TerminalSettingsCard } from '@/components/settings/terminal-settings-card';
import { TokensCard } from '@/components/settings/tokens-card';
import { UsersCard } from '@/components/settings/users-card';
import { PageHeader } from '@/components/shell/shell';

export const metadata: Metadata = { title: 'Settings' };

export default function SettingsPage() {
  return (
    <>
      <PageHeader
        title="Settings"
        description="This instance, where packages and GitHub releases come from, the people who can sign in, and your API tokens."
      />
      <SettingsNav />
      <div className="grid grid-cols-1 gap-8">
        <section id="instance" aria-label="Instance" className="scroll-mt-28">
          <InstanceCard />
        </section>
        <section id="packages" aria-label="Package sources" className="scroll-mt-28">
          <RuntimeSettingsCard />
        </section>
        <section id="github" aria-label="GitHub" className="scroll-mt-28">
          <GithubSettingsCard />
        </section>
        <section id="skills" aria-label="Skills" className="scroll-mt-28">
          <SkillsSettingsCard />
        </section>
        <section id="terminal" aria-label="Terminal" className="scroll-mt-28">
          <TerminalSettingsCard />
        </section>
        <section id="users" aria-label="Users" className="scroll-mt-28">
          <UsersCard />
        </section>
        <section id="account" aria-label="Your account" className="scroll-mt-28">
          <PasswordCard />
        </section>
        <section id="variables" aria-label="Your variables" className="scroll-mt-28">
          <MyEnvCard />
        </section>
        <section id="tokens" aria-label="API tokens" className="scroll-mt-28">
          <TokensCard />
        </section>
      </div>
    </>
  );
}
