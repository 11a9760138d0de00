type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

function threshold(): number {
  const l = (process.env.LOG_LEVEL ?? 'info') as Level;
  return ORDER[l] ?? ORDER.info;
}

function emit(level: Level, msg: string, fields?: Record<string, unknown>) {
  if (ORDER[level] < threshold()) return;
  const line = JSON.stringify({ t: new Date().toISOString(), level, msg, ...fields });
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

/** Structured one-line JSON logs on stdout/stderr. */
export const logger = {
  debug: (m: string, f?: Record<string, unknown>) => emit('debug', m, f),
  info: (m: string, f?: Record<string, unknown>) => emit('info', m, f),
  warn: (m: string, f?: Record<string, unknown>) => emit('warn', m, f),
  error: (m: string, f?: Record<string, unknown>) => emit('error', m, f),
};

/**
 * An error with its whole `cause` chain, for the log: a database wrapper's own stack says only
 * "Failed query", the driver's reason sits in its cause. Bounded, so a cycle cannot loop.
 */
export function describeError(e: unknown, depth = 5): string {
  const parts: string[] = [];
  let cur: unknown = e;
  for (let i = 0; i < depth && cur !== undefined && cur !== null; i++) {
    parts.push(cur instanceof Error ? (cur.stack ?? `${cur.name}: ${cur.message}`) : String(cur));
    cur = cur instanceof Error ? cur.cause : undefined;
  }
  return parts.join('\ncaused by: ');
}
