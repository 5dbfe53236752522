import { createHash, randomBytes } from 'node:crypto';
import type { PrismaClient } from '@svc/db';

/** Random bytes in a session token; the cookie carries them base64url (43 characters). */
export const SESSION_TOKEN_BYTES = 32;
const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;
// last_seen_at is written at most once per this interval per session, so a page view is not a write.
// The idle timeout is therefore exact to this much (a session may live up to a minute past it).
export const DEFAULT_SESSION_TOUCH_INTERVAL_MS = 60_000;

/** The signed-in account behind a session, as every dashboard page sees it. */
export interface SessionAccount {
  /** The account's id (dashboard.accounts.id). */
  id: string;
  email: string;
  role: string;
  clientId: string;
  /** dashboard.sessions.id, for logs (never the token). */
  sessionId: string;
}

export interface StartSessionInput {
  accountId: string;
  userAgent?: string | undefined;
  ip?: string | undefined;
}

export interface StartedSession {
  /** 32 random bytes, base64url: the cookie value. Returned once; only its SHA-256 is stored. */
  token: string;
  sessionId: string;
  /** The absolute end (created + maxAgeMs); the idle timeout may end it sooner. */
  expiresAt: Date;
}

export interface SessionStoreOptions {
  /** Absolute lifetime, ms (DASHBOARD_SESSION_MAX_HOURS). */
  maxAgeMs: number;
  /** Idle timeout, ms (DASHBOARD_SESSION_IDLE_MINUTES): no request for this long ends the session. */
  idleMs: number;
  /** Minimum ms between two last_seen_at writes (default 60 000). */
  touchIntervalMs?: number;
  /** Clock, for tests. */
  now?: () => Date;
}

/** SHA-256 of a session token (what dashboard.sessions.token_hash holds). */
export function sessionTokenHash(token: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(createHash('sha256').update(token, 'utf8').digest());
}

const MAX_USER_AGENT = 500;
const MAX_IP = 100;

/**
 * Dashboard sessions (`dashboard.sessions`). The token is 256 random bits, so its plain SHA-256
 * is enough to store (nothing to brute-force) and lookup is one indexed query; a stolen database dump
 * yields no usable cookie.
 */
export class SessionStore {
  private readonly now: () => Date;
  private readonly touchIntervalMs: number;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly options: SessionStoreOptions,
  ) {
    if (!(options.maxAgeMs > 0) || !(options.idleMs > 0)) {
      throw new RangeError('session maxAgeMs and idleMs must be positive');
    }
    this.now = options.now ?? (() => new Date());
    this.touchIntervalMs = options.touchIntervalMs ?? DEFAULT_SESSION_TOUCH_INTERVAL_MS;
  }

  /**
   * Starts a session for an account and returns its token (once). Also deletes the account's sessions
   * that are already over (expired, idle, revoked), so rows do not pile up per account.
   */
  async start(input: StartSessionInput): Promise<StartedSession> {
    const now = this.now();
    const token = randomBytes(SESSION_TOKEN_BYTES).toString('base64url');
    const expiresAt = new Date(now.getTime() + this.options.maxAgeMs);
    const idleSince = new Date(now.getTime() - this.options.idleMs);
    const [, row] = await this.prisma.$transaction([
      this.prisma.dashboardSession.deleteMany({
        where: {
          accountId: input.accountId,
          OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: idleSince } }, { revokedAt: { not: null } }],
        },
      }),
      this.prisma.dashboardSession.create({
        data: {
          accountId: input.accountId,
          tokenHash: sessionTokenHash(token),
          createdAt: now,
          lastSeenAt: now,
          expiresAt,
          userAgent: input.userAgent?.slice(0, MAX_USER_AGENT) ?? null,
          ip: input.ip?.slice(0, MAX_IP) ?? null,
        },
        select: { id: true },
      }),
    ]);
    return { token, sessionId: row.id, expiresAt };
  }

  /**
   * The account of a live session, or null: unknown or malformed token, revoked, past its absolute
   * expiry, idle longer than the idle timeout, or account disabled. Refreshes last_seen_at at most
   * once per touch interval (the condition sits in the UPDATE, so concurrent requests write once).
   */
  async lookup(token: string): Promise<SessionAccount | null> {
    if (!TOKEN_PATTERN.test(token)) return null;
    const row = await this.prisma.dashboardSession.findUnique({
      where: { tokenHash: sessionTokenHash(token) },
      select: {
        id: true,
        lastSeenAt: true,
        expiresAt: true,
        revokedAt: true,
        account: {
          select: {
            id: true,
            email: true,
            role: true,
            clientId: true,
            disabledAt: true,
          },
        },
      },
    });
    if (row === null || row.revokedAt !== null || row.account.disabledAt !== null) return null;
    const now = this.now();
    const nowMs = now.getTime();
    if (row.expiresAt.getTime() <= nowMs || row.lastSeenAt.getTime() + this.options.idleMs <= nowMs) {
      return null;
    }
    if (nowMs - row.lastSeenAt.getTime() >= this.touchIntervalMs) {
      await this.prisma.dashboardSession.updateMany({
        where: { id: row.id, lastSeenAt: { lte: new Date(nowMs - this.touchIntervalMs) } },
        data: { lastSeenAt: now },
      });
    }
    return {
      id: row.account.id,
      email: row.account.email,
      role: row.account.role,
      clientId: row.account.clientId,
      sessionId: row.id,
    };
  }

  /** Sign-out: deletes this session (nothing when the token is unknown). */
  async end(token: string): Promise<void> {
    if (!TOKEN_PATTERN.test(token)) return;
    await this.prisma.dashboardSession.deleteMany({ where: { tokenHash: sessionTokenHash(token) } });
  }

  /** "Sign out everywhere" (and the admin CLI): revokes every live session of an account; returns how many. */
  async endAll(accountId: string): Promise<number> {
    const { count } = await this.prisma.dashboardSession.updateMany({
      where: { accountId, revokedAt: null },
      data: { revokedAt: this.now() },
    });
    return count;
  }
}
