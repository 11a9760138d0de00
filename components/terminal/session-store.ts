// The terminal session this tab has open per instance, in sessionStorage: a reload of the tab
// re-attaches to it, while another tab (or a closed one) never picks it up.

export interface SavedSession {
  sessionId: string;
  offset: number;
}

const key = (instanceId: string) => `skilldock.terminal:${instanceId}`;

function storage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

export function savedSession(instanceId: string): SavedSession | null {
  try {
    const v = JSON.parse(storage()?.getItem(key(instanceId)) ?? 'null');
    return v && typeof v.sessionId === 'string' && Number.isSafeInteger(v.offset) ? { sessionId: v.sessionId, offset: v.offset } : null;
  } catch {
    return null;
  }
}

export function saveSession(instanceId: string, s: SavedSession): void {
  try {
    storage()?.setItem(key(instanceId), JSON.stringify(s));
  } catch {
    // Storage full or blocked: a reload then opens a new terminal instead of re-attaching.
  }
}

export function forgetSession(instanceId: string): void {
  try {
    storage()?.removeItem(key(instanceId));
  } catch {
    // Blocked storage holds nothing to forget.
  }
}

/** Writes the tab's session at most twice a second: output can arrive in thousands of frames. */
export class SessionSaver {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private pending: SavedSession | null = null;

  constructor(private readonly instanceId: string) {}

  save(s: SavedSession, now = false): void {
    this.pending = s;
    if (now) this.flush();
    else if (this.timer === undefined) this.timer = setTimeout(this.flush, 500);
  }

  readonly flush = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending) saveSession(this.instanceId, this.pending);
    this.pending = null;
  };

  forget(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
    forgetSession(this.instanceId);
  }
}
