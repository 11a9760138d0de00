// The backend-specific L7 rules: CubeSandbox's cubeRules and E2B's e2bHostRules.
import { parseIp } from './addr';
import { checkDomain } from './entry';
import type { CubeAudit, CubeRule, E2bHostRule, PolicyIssue } from './types';

// process-wide: a constant table, never written
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'CONNECT', 'TRACE']);
// process-wide: a constant table, never written
const SCHEMES = new Set(['', 'http', 'https']);
// process-wide: a constant table, never written
const AUDITS = new Set(['', 'none', 'metadata', 'full']);
// An HTTP field name (RFC 9110 token).
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]+$/i;
const PORT = /^\d{1,5}$/;
const WHITESPACE = /\s/;

export const E2B_MAX_RULES = 10;
export const E2B_MAX_HEADERS = 20;

type Rule = Omit<CubeRule, 'scheme' | 'audit'> & { scheme: string; audit: string };

function checkHostPort(host: string): string | { value: string } {
  let name = host.toLowerCase();
  const colon = name.lastIndexOf(':');
  let port = '';
  if (colon >= 0 && !name.endsWith(']') && name.indexOf(':') === colon) {
    port = name.slice(colon + 1);
    name = name.slice(0, colon);
    if (!PORT.test(port) || Number(port) < 1 || Number(port) > 65535) return 'the port must be a number from 1 to 65535';
  }
  if (parseIp(name)) return { value: port ? `${name}:${port}` : name };
  const d = checkDomain(name);
  if (!d.ok) return d.reason;
  return { value: port ? `${d.value}:${port}` : d.value };
}

/** Rule checks for Cube's L7 rules; returns the normalised rules (names trimmed, names lower-cased). */
export function checkCubeRules(rules: Rule[], issues: PolicyIssue[]): CubeRule[] {
  const names = new Map<string, number>();
  return rules.map((r, i) => {
    const at = (field: string, message: string) => issues.push({ path: `cubeRules.${i}${field ? `.${field}` : ''}`, message: `cubeRules[${i}]: ${message}` });
    const name = r.name.trim();
    if (name === '') at('name', 'a rule needs a name.');
    else if (names.has(name)) at('name', `the name "${name}" is already used by cubeRules[${names.get(name)}]; names are unique.`);
    else names.set(name, i);
    const host = r.host.trim();
    const sni = r.sni.trim();
    let normHost = host;
    let normSni = sni;
    if (host === '' && sni === '') at('host', 'a rule needs a host or an SNI name.');
    if (host !== '') {
      const h = checkHostPort(host);
      if (typeof h === 'string') at('host', `host "${host}": ${h}.`);
      else normHost = h.value;
    }
    if (sni !== '') {
      const d = checkDomain(sni);
      if (!d.ok) at('sni', `sni "${sni}" must be a valid domain: ${d.reason}.`);
      else normSni = d.value;
    }
    if (!SCHEMES.has(r.scheme)) at('scheme', `scheme "${r.scheme}" is not one of "", "http", "https".`);
    if (!AUDITS.has(r.audit)) at('audit', `audit "${r.audit}" is not one of "", "none", "metadata", "full".`);
    const methods = r.methods.map((m) => m.toUpperCase());
    methods.forEach((m, j) => {
      if (!METHODS.has(m)) at(`methods.${j}`, `"${r.methods[j]}" is not a standard HTTP method (${[...METHODS].join(', ')}).`);
      else if (methods.indexOf(m) !== j) at(`methods.${j}`, `${m} is listed twice.`);
    });
    if (r.path !== '' && (!r.path.startsWith('/') || WHITESPACE.test(r.path))) at('path', `path "${r.path}" must start with "/" and hold no whitespace.`);
    const headers = new Map<string, number>();
    r.inject.forEach((inj, j) => {
      const header = inj.header.trim();
      if (header === '') at(`inject.${j}.header`, `inject[${j}] needs a header name.`);
      else if (!HEADER_NAME.test(header)) at(`inject.${j}.header`, `inject[${j}] header "${header}" is not a valid HTTP header name.`);
      else if (headers.has(header.toLowerCase()))
        at(
          `inject.${j}.header`,
          `inject[${j}] header "${header}" is already injected by inject[${headers.get(header.toLowerCase())}]; header names are unique within a rule.`,
        );
      else headers.set(header.toLowerCase(), j);
      if (r.deny && inj.secret !== '') at(`inject.${j}.secret`, `a deny rule cannot carry a secret (inject[${j}]); it never forwards a request.`);
    });
    return {
      ...r,
      name,
      host: normHost,
      sni: normSni,
      scheme: r.scheme as CubeRule['scheme'],
      audit: r.audit as CubeAudit,
      methods,
      inject: r.inject.map((inj) => ({ ...inj, header: inj.header.trim() })),
    };
  });
}

/** Whether an allowOut domain list covers `host` (exact, or under a `*.` entry; a wildcard host needs an equal or wider wildcard). */
export function coveredByAllow(host: string, allowDomains: string[]): boolean {
  if (allowDomains.includes(host)) return true;
  const body = host.startsWith('*.') ? host.slice(2) : host;
  return allowDomains.some((d) => d.startsWith('*.') && body.endsWith(`.${d.slice(2)}`));
}

/** Rule checks for E2B's header injection; returns the rules with normalised hosts. */
export function checkE2bHostRules(rules: E2bHostRule[], allowDomains: string[], issues: PolicyIssue[]): E2bHostRule[] {
  if (rules.length > E2B_MAX_RULES) issues.push({ path: 'e2bHostRules', message: `At most ${E2B_MAX_RULES} e2bHostRules (there are ${rules.length}).` });
  const hosts = new Map<string, number>();
  return rules.map((r, i) => {
    const at = (field: string, message: string) =>
      issues.push({ path: `e2bHostRules.${i}${field ? `.${field}` : ''}`, message: `e2bHostRules[${i}]: ${message}` });
    let host = r.host.trim().toLowerCase();
    const d = checkDomain(host);
    if (host.length > 128) at('host', `host "${host.slice(0, 40)}…" is longer than 128 characters.`);
    else if (!d.ok) at('host', `host "${r.host}" must be a domain: ${d.reason}.`);
    else {
      host = d.value;
      if (hosts.has(host)) at('host', `host "${host}" already has e2bHostRules[${hosts.get(host)}]; hosts are unique.`);
      else if (!coveredByAllow(host, allowDomains))
        at('host', `host "${host}" is not allowed by allowOut; add it (or a "*." entry covering it) to allowOut first.`);
      hosts.set(host, hosts.get(host) ?? i);
    }
    const names = Object.keys(r.headers);
    if (names.length > E2B_MAX_HEADERS) at('headers', `at most ${E2B_MAX_HEADERS} headers per host (there are ${names.length}).`);
    const seen = new Set<string>();
    for (const name of names) {
      const value = r.headers[name];
      if (name === '' || !HEADER_NAME.test(name)) at(`headers.${name}`, `header "${name}" is not a valid HTTP header name.`);
      else if (name.length > 64) at(`headers.${name}`, `header name "${name.slice(0, 20)}…" is longer than 64 characters.`);
      else if (seen.has(name.toLowerCase())) at(`headers.${name}`, `header "${name}" is set twice (header names are case-insensitive).`);
      seen.add(name.toLowerCase());
      if (value.length > 2048) at(`headers.${name}`, `the value of header "${name}" is longer than 2048 characters.`);
    }
    return { host, headers: { ...r.headers } };
  });
}
