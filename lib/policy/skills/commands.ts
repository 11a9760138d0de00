// The shell commands a SKILL.md tells an agent to run: the lines of its fenced bash/sh/shell/zsh/
// console blocks, with backslash continuations joined, a leading `$ ` prompt dropped, comments and
// output lines (in console blocks) left out, and `{baseDir}` filled in with the skill's folder.
// Bounded: only so much Markdown is read and only so many commands are returned.

const SHELL_INFO = /^(?:bash|sh|shell|zsh|console|terminal|shell-session)$/i;
const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)/;
export const MAX_BODY_CHARS = 128 * 1024;
const MAX_COMMAND_CHARS = 4096;

export interface DocumentedCommands {
  commands: string[];
  /** More commands were documented than were returned. */
  truncated: boolean;
}

export function documentedCommands(markdown: string, max: number, baseDir?: string): DocumentedCommands {
  const lines = markdown.slice(0, MAX_BODY_CHARS).split('\n');
  const out: string[] = [];
  const seen = new Set<string>();
  let truncated = false;
  let fence: { marker: string; shell: boolean; console: boolean } | null = null;
  let pending = '';
  const push = (raw: string) => {
    let c = raw.trim();
    if (baseDir) c = c.replaceAll('{baseDir}', baseDir);
    if (!c || c.length > MAX_COMMAND_CHARS || seen.has(c)) return;
    if (out.length >= max) {
      truncated = true;
      return;
    }
    seen.add(c);
    out.push(c);
  };
  for (const line of lines) {
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1][0] === fence.marker[0] && f[1].length >= fence.marker.length && !f[2]) {
        if (pending) push(pending);
        pending = '';
        fence = null;
        continue;
      }
      if (!fence.shell) continue;
      let text = pending ? line : line.replace(/^\s*/, '');
      if (!pending) {
        if (fence.console) {
          if (!/^\$ /.test(text)) continue;
          text = text.slice(2);
        } else if (/^\$ /.test(text)) text = text.slice(2);
        if (!text.trim() || text.trim().startsWith('#')) continue;
      }
      if (/\\$/.test(text)) pending += `${text}\n`;
      else {
        push(pending + text);
        pending = '';
      }
      continue;
    }
    if (f) fence = { marker: f[1], shell: SHELL_INFO.test(f[2]), console: /^(?:console|terminal|shell-session)$/i.test(f[2]) };
  }
  return { commands: out, truncated };
}
