/** "42 s", "7 min", "2 h 5 min": how long a terminal has had no input. */
export function formatIdle(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return `${Math.floor(minutes / 60)} h${rest ? ` ${rest} min` : ''}`;
}

/** An instance id (`<config id>~<sandbox id>`) as a short label: the config's name, if known, and the sandbox id's start. */
export function sandboxLabel(instanceId: string, configNames: ReadonlyMap<string, string>): string {
  const cut = instanceId.indexOf('~');
  if (cut < 0) return instanceId.slice(0, 24);
  const config = instanceId.slice(0, cut);
  return `${configNames.get(config) ?? config} · ${instanceId.slice(cut + 1, cut + 13)}`;
}
