// Small building blocks of the deny-group rules: name sets, string tests, and the few tool
// grammars a rule needs (sed scripts).
import type { GroupView } from './group-view';

/** One rule as written in a table: its name inside the group, its readable pattern, its test. */
export type Spec = [name: string, pattern: string, test: (v: GroupView) => boolean];

export const names = (...n: string[]) => {
  const set = new Set(n);
  return (v: GroupView) => set.has(v.name) || v.wrappers.some((w) => set.has(w));
};
export const anyString = (re: RegExp) => (v: GroupView) => v.strings.some((s) => re.test(s));
export const isCmd =
  (...n: string[]) =>
  (v: GroupView) =>
    n.includes(v.name);
export const PYTHON = /^(?:python|pypy)(?:\d+(?:\.\d+)?)?$/;
export const LOOPBACK =
  /^(?:[a-z][a-z0-9+.-]{0,20}:\/\/)?(?:[^@/\s]{0,200}@)?(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|169\.254\.\d{1,3}\.\d{1,3})(?:[:/?#]|$)/i;
export const DISK = /^\/dev\/(?:sd[a-z]|nvme\d|vd[a-z]|xvd[a-z]|hd[a-z]|mmcblk\d)/;
export const code = (v: GroupView) => v.args.join(' ');

/** A sed script with an `e` command, or an `s` command whose flags hold `e`. */
export function sedExecutes(script: string): boolean {
  for (const cmd of script.split(/[;\n]/)) {
    const c = cmd.trim().replace(/^[\d,$]{0,20}/, '');
    if (c === 'e' || c.startsWith('e ')) return true;
    if (c.length < 4 || c[0] !== 's') continue;
    const d = c[1];
    let parts = 0;
    let i = 2;
    for (; i < c.length && parts < 2; i++) {
      if (c[i] === '\\') i++;
      else if (c[i] === d) parts++;
    }
    if (parts === 2 && /^[gpIiMmw\d]{0,8}e/.test(c.slice(i))) return true;
  }
  return false;
}
