'use client';

import { Plus, Trash2 } from 'lucide-react';
import type { CubeRule, E2bHostRule, PolicyIssue } from '@/lib/network/policy/types';
import { Button } from '../../ui/button';
import { CheckField, Field, Input, Select } from '../../ui/input';

const SECRET_HINT = 'configured — leave *** to keep';
const NEW_CUBE_RULE: CubeRule = { name: '', scheme: '', sni: '', host: '', methods: [], path: '', deny: false, audit: '', inject: [] };

const issueAt = (issues: PolicyIssue[], path: string) => issues.find((i) => i.path === path)?.message;
/** Issues under a rule not tied to one of the fields shown (e.g. the rule as a whole). */
const otherIssues = (issues: PolicyIssue[], prefix: string, shown: string[]) =>
  issues.filter((i) => (i.path === prefix || i.path.startsWith(`${prefix}.`)) && !shown.includes(i.path));

function replace<T>(rows: T[], i: number, row: T): T[] {
  return rows.map((r, j) => (j === i ? row : r));
}

function RuleIssues({ issues }: { issues: PolicyIssue[] }) {
  if (!issues.length) return null;
  return (
    <ul role="alert" className="grid gap-0.5 text-xs text-destructive">
      {issues.map((i) => (
        <li key={`${i.path}:${i.message}`}>{i.message}</li>
      ))}
    </ul>
  );
}

/** CubeSandbox's L7 rules, first match wins; injected header secrets are write-only. */
export function CubeRulesEditor({ rules, issues, onChange }: { rules: CubeRule[]; issues: PolicyIssue[]; onChange: (r: CubeRule[]) => void }) {
  return (
    <div className="grid gap-2" data-slot="network-cube-rules">
      <p className="text-sm font-medium">Cube rules (first match wins)</p>
      {rules.map((r, i) => {
        const p = `cubeRules.${i}`;
        const set = (patch: Partial<CubeRule>) => onChange(replace(rules, i, { ...r, ...patch }));
        const fields = ['name', 'host', 'sni', 'path', 'methods', 'scheme', 'audit'].map((f) => `${p}.${f}`);
        return (
          <fieldset key={i} className="grid gap-2 rounded-md border p-3">
            <legend className="px-1 text-xs text-muted-foreground">Rule {i + 1}</legend>
            <div className="grid gap-2 sm:grid-cols-3">
              <Field label="Name" htmlFor={`${p}-name`} error={issueAt(issues, `${p}.name`)}>
                <Input id={`${p}-name`} value={r.name} onChange={(e) => set({ name: e.target.value })} />
              </Field>
              <Field label="Host" htmlFor={`${p}-host`} error={issueAt(issues, `${p}.host`)}>
                <Input id={`${p}-host`} className="font-mono" value={r.host} onChange={(e) => set({ host: e.target.value })} />
              </Field>
              <Field label="SNI" htmlFor={`${p}-sni`} error={issueAt(issues, `${p}.sni`)}>
                <Input id={`${p}-sni`} className="font-mono" value={r.sni} onChange={(e) => set({ sni: e.target.value })} />
              </Field>
              <Field label="Scheme" htmlFor={`${p}-scheme`} error={issueAt(issues, `${p}.scheme`)}>
                <Select id={`${p}-scheme`} value={r.scheme} onChange={(e) => set({ scheme: e.target.value as CubeRule['scheme'] })}>
                  <option value="">any</option>
                  <option value="http">http</option>
                  <option value="https">https</option>
                </Select>
              </Field>
              <Field label="Methods" htmlFor={`${p}-methods`} hint="Comma-separated; empty = any" error={issueAt(issues, `${p}.methods`)}>
                <Input
                  id={`${p}-methods`}
                  value={r.methods.join(',')}
                  onChange={(e) =>
                    set({
                      methods: e.target.value
                        .split(',')
                        .map((m) => m.trim().toUpperCase())
                        .filter(Boolean),
                    })
                  }
                />
              </Field>
              <Field label="Path" htmlFor={`${p}-path`} error={issueAt(issues, `${p}.path`)}>
                <Input id={`${p}-path`} className="font-mono" value={r.path} onChange={(e) => set({ path: e.target.value })} />
              </Field>
              <Field label="Audit" htmlFor={`${p}-audit`} error={issueAt(issues, `${p}.audit`)}>
                <Select id={`${p}-audit`} value={r.audit} onChange={(e) => set({ audit: e.target.value as CubeRule['audit'] })}>
                  <option value="">default</option>
                  <option value="none">none</option>
                  <option value="metadata">metadata</option>
                  <option value="full">full</option>
                </Select>
              </Field>
            </div>
            <CheckField
              id={`${p}-deny`}
              label="Deny"
              hint="Refuse requests this rule matches (otherwise allow them)."
              checked={r.deny}
              onChange={(e) => set({ deny: e.target.checked })}
            />
            {r.inject.map((h, k) => {
              const q = `${p}.inject.${k}`;
              const setH = (patch: Partial<typeof h>) => set({ inject: replace(r.inject, k, { ...h, ...patch }) });
              fields.push(`${q}.header`, `${q}.secret`, `${q}.format`);
              return (
                <div key={k} className="grid gap-2 sm:grid-cols-[1fr_1fr_1fr_auto] sm:items-end">
                  <Field label="Header" htmlFor={`${q}-header`} error={issueAt(issues, `${q}.header`)}>
                    <Input id={`${q}-header`} className="font-mono" value={h.header} onChange={(e) => setH({ header: e.target.value })} />
                  </Field>
                  <Field label="Secret" htmlFor={`${q}-secret`} hint={h.secret === '***' ? SECRET_HINT : undefined} error={issueAt(issues, `${q}.secret`)}>
                    <Input id={`${q}-secret`} type="password" autoComplete="new-password" value={h.secret} onChange={(e) => setH({ secret: e.target.value })} />
                  </Field>
                  <Field label="Format" htmlFor={`${q}-format`} hint="e.g. Bearer {secret}" error={issueAt(issues, `${q}.format`)}>
                    <Input id={`${q}-format`} value={h.format} onChange={(e) => setH({ format: e.target.value })} />
                  </Field>
                  <Button
                    type="button"
                    size="icon"
                    variant="ghost"
                    aria-label={`Remove header ${h.header || k + 1}`}
                    onClick={() => set({ inject: r.inject.filter((_, j) => j !== k) })}
                  >
                    <Trash2 aria-hidden />
                  </Button>
                </div>
              );
            })}
            <RuleIssues issues={otherIssues(issues, p, fields)} />
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" onClick={() => set({ inject: [...r.inject, { header: '', secret: '', format: '' }] })}>
                <Plus aria-hidden /> Inject a header
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden /> Remove rule {i + 1}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <Button type="button" size="sm" variant="outline" onClick={() => onChange([...rules, NEW_CUBE_RULE])}>
          <Plus aria-hidden /> Add a Cube rule
        </Button>
      </div>
    </div>
  );
}

/** E2B's header injection per allowed host; header values are write-only secrets. */
export function E2bHostRulesEditor({ rules, issues, onChange }: { rules: E2bHostRule[]; issues: PolicyIssue[]; onChange: (r: E2bHostRule[]) => void }) {
  return (
    <div className="grid gap-2" data-slot="network-e2b-rules">
      <p className="text-sm font-medium">E2B host rules (headers added to requests to a host)</p>
      {rules.map((r, i) => {
        const p = `e2bHostRules.${i}`;
        const headers = Object.entries(r.headers);
        const setHeaders = (rows: [string, string][]) => onChange(replace(rules, i, { ...r, headers: Object.fromEntries(rows) }));
        return (
          <fieldset key={i} className="grid gap-2 rounded-md border p-3">
            <legend className="px-1 text-xs text-muted-foreground">Host rule {i + 1}</legend>
            <Field label="Host" htmlFor={`${p}-host`} error={issueAt(issues, `${p}.host`)}>
              <Input id={`${p}-host`} className="font-mono" value={r.host} onChange={(e) => onChange(replace(rules, i, { ...r, host: e.target.value }))} />
            </Field>
            {headers.map(([name, value], k) => (
              <div key={k} className="grid gap-2 sm:grid-cols-[1fr_1fr_auto] sm:items-end">
                <Field label="Header" htmlFor={`${p}-h${k}-name`}>
                  <Input id={`${p}-h${k}-name`} className="font-mono" value={name} onChange={(e) => setHeaders(replace(headers, k, [e.target.value, value]))} />
                </Field>
                <Field label="Value" htmlFor={`${p}-h${k}-value`} hint={value === '***' ? SECRET_HINT : undefined}>
                  <Input
                    id={`${p}-h${k}-value`}
                    type="password"
                    autoComplete="new-password"
                    value={value}
                    onChange={(e) => setHeaders(replace(headers, k, [name, e.target.value]))}
                  />
                </Field>
                <Button
                  type="button"
                  size="icon"
                  variant="ghost"
                  aria-label={`Remove header ${name || k + 1}`}
                  onClick={() => setHeaders(headers.filter((_, j) => j !== k))}
                >
                  <Trash2 aria-hidden />
                </Button>
              </div>
            ))}
            <RuleIssues issues={otherIssues(issues, p, [`${p}.host`])} />
            <div className="flex flex-wrap gap-2">
              <Button type="button" size="sm" variant="outline" disabled={'' in r.headers} onClick={() => setHeaders([...headers, ['', '']])}>
                <Plus aria-hidden /> Add a header
              </Button>
              <Button type="button" size="sm" variant="outline" onClick={() => onChange(rules.filter((_, j) => j !== i))}>
                <Trash2 aria-hidden /> Remove host rule {i + 1}
              </Button>
            </div>
          </fieldset>
        );
      })}
      <div>
        <Button type="button" size="sm" variant="outline" onClick={() => onChange([...rules, { host: '', headers: {} }])}>
          <Plus aria-hidden /> Add a host rule
        </Button>
      </div>
    </div>
  );
}
