/**
 * The legacy Streamable HTTP sessions of one endpoint. At most `limits.maxSessions` exist at once
 * (sessions being opened count, so concurrent `initialize` requests cannot overshoot); each is
 * closed after `limits.sessionIdleTimeoutMs` with no request in flight and no open stream; each
 * belongs to the principal that opened it (session-owner.ts). Closing a session, however it
 * happens, frees everything it held.
 */
import type { AuthInfo, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { GateActivity } from './request-gate.js';
import { mayUseSession, type SessionOwner } from './session-owner.js';
import type { SessionStream } from './session-stream.js';
import type { StreamGuard } from './stream-guard.js';

/**
 * Whether a session is in use: HTTP requests on it (a POST until its answer is sent, a GET stream
 * while open) and requests its gate runs or queues. Once nothing is, the idle clock runs.
 */
export class SessionActivity implements GateActivity {
  private busy = 0;
  private timer: NodeJS.Timeout | undefined;
  private onIdle: (() => void) | undefined;

  constructor(private readonly idleMs: number) {}

  /** Starts the idle clock (the session has an id now); `onIdle` closes it. */
  watch(onIdle: () => void): void {
    this.onIdle = onIdle;
    this.arm();
  }

  begin(): void {
    this.busy++;
    this.disarm();
  }

  end(): void {
    this.busy--;
    this.arm();
  }

  /** Busy until the answer `guard` bounds has ended, however it ended. */
  during(guard: StreamGuard): void {
    this.begin();
    guard.onEnd(() => this.end());
  }

  stop(): void {
    this.onIdle = undefined;
    this.disarm();
  }

  private arm(): void {
    if (this.busy > 0 || !this.onIdle || this.timer) return;
    // A session nobody uses must not keep the process alive.
    this.timer = setTimeout(this.onIdle, this.idleMs).unref();
  }

  private disarm(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}

export interface LegacySession {
  transport: WebStandardStreamableHTTPServerTransport;
  /** Who opened it; `undefined` for an unauthenticated caller. */
  owner: SessionOwner;
  activity: SessionActivity;
  /** Its GET stream, bounded from the send. */
  stream: SessionStream;
  /** Frees what it holds: its SDK Server (and with it the transport and its streams), its tracking. */
  release(): void;
}

export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  private opening = 0;

  constructor(private readonly maxSessions: number) {}

  /** Claims a place for a session being opened; false at the cap. */
  reserve(): boolean {
    if (this.sessions.size + this.opening >= this.maxSessions) return false;
    this.opening++;
    return true;
  }

  /** Gives back a claimed place that never became a session. */
  unreserve(): void {
    this.opening--;
  }

  /** The claimed place becomes session `id`, closed once idle. */
  add(id: string, session: LegacySession): void {
    this.opening--;
    // A custom sessionIdGenerator may repeat an id: the older session must not linger unreachable.
    this.drop(id);
    this.sessions.set(id, session);
    session.activity.watch(() => this.drop(id, session));
  }

  /** Session `id` when `auth` may use it; otherwise undefined, as for an unknown id. */
  find(id: string, auth: AuthInfo | undefined): LegacySession | undefined {
    const session = this.sessions.get(id);
    return session && mayUseSession(session.owner, auth) ? session : undefined;
  }

  /** Closes session `id` (only if it is still `only`, when given) and frees what it held. */
  drop(id: string, only?: LegacySession): void {
    const session = this.sessions.get(id);
    if (!session || (only && session !== only)) return;
    this.sessions.delete(id);
    session.activity.stop();
    session.release();
  }

  dropAll(): void {
    for (const id of [...this.sessions.keys()]) this.drop(id);
  }
}
