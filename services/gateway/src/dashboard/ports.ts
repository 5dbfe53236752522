import type { Logger } from '@svc/log';
import type { RunOrchestrator } from '../domain/run-orchestrator';
import type { UploadsService } from '../domain/uploads-service';
import type { VaultService } from '../domain/vault-service';
import type { CatalogReader, WalletReader } from '../ports';
import type { UploadsDataTarget } from '../routes/uploads-data-proxy';
import type { OneTimeNotes } from './one-time-notes';

/**
 * What the dashboard needs from the rest of the gateway, as ports: main.ts adapts the @svc/auth stores
 * (accounts, sessions, API keys), the sign-in throttle and the one-time notes over Redis and the bus;
 * tests pass fakes.
 */

/** The signed-in person, as every page sees it. */
export interface SignedInAccount {
  readonly id: string;
  readonly email: string;
  /** `owner`, `developer` or `viewer` (roles.ts); anything else is refused every page. */
  readonly role: string;
  readonly clientId: string;
  readonly clientName: string;
}

/** Email + password → the account, or null; the same time and answer for a wrong email or password. */
export interface DashboardAccounts {
  verifyPassword(email: string, password: string): Promise<SignedInAccount | null>;
}

export interface StartedSession {
  /** 32 random bytes, base64url: the cookie value. Never stored or logged (only its SHA-256). */
  readonly token: string;
  readonly expiresAt: Date;
}

/** Server-side sessions: lookup applies the absolute expiry and the idle timeout. */
export interface DashboardSessions {
  start(input: { accountId: string; userAgent?: string; ip?: string }): Promise<StartedSession>;
  /** The session's account, or null (unknown, expired, idle too long, revoked, account disabled). */
  lookup(token: string): Promise<SignedInAccount | null>;
  /** Sign-out: this session only. */
  end(token: string): Promise<void>;
  /** "Sign out everywhere": every session of the account. */
  endAll(accountId: string): Promise<unknown>;
}

/** The sign-in throttle (sign-in/, helper A): per account and per source address. */
export interface SignInGate {
  /** Seconds until another attempt is allowed, or 0 when one is. */
  retryAfterSeconds(email: string, ip: string): Promise<number>;
  failed(email: string, ip: string): Promise<void>;
  succeeded(email: string, ip: string): Promise<void>;
}

/** A client's API key as the keys page lists it. */
export interface DashboardApiKey {
  readonly keyId: string;
  readonly scopes: readonly string[];
  readonly label: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date | null;
  readonly revokedAt: Date | null;
}

export interface DashboardApiKeys {
  listForClient(clientId: string): Promise<readonly DashboardApiKey[]>;
  createForClient(input: {
    clientId: string;
    scopes: readonly string[];
    label: string | null;
    expiresAt: Date | null;
  }): Promise<{ keyId: string; apiKey: string }>;
  /** False when the key is not this client's (or does not exist): the page answers 404. */
  revokeForClient(clientId: string, keyId: string): Promise<boolean>;
}

/** What main.ts provides for the dashboard (app.ts adds the RPC ports the API routes share). */
export interface DashboardOptions {
  readonly accounts: DashboardAccounts;
  readonly sessions: DashboardSessions;
  readonly signInGate: SignInGate;
  readonly apiKeys: DashboardApiKeys;
  /** Publishes `apikey.revoked` so every gateway drops the key from its cache at once. */
  readonly keyRevoked: (keyId: string) => Promise<unknown>;
  /**
   * What a form action shows once after its redirect (a new API key): sealed server-side beside the
   * session, read once (one-time-notes.ts; main.ts keeps them in Redis).
   */
  readonly oneTimeNotes: OneTimeNotes;
  /** ms since the epoch; tests move the clock. Default Date.now. */
  readonly now?: () => number;
}

/** Everything a page may use (page-kit.ts hands it to page modules as `kit.deps`). */
export interface DashboardDeps extends DashboardOptions {
  readonly logger: Logger;
  /** The capabilities the runs page's filter offers (the API's own list, cached). */
  readonly catalog: Pick<CatalogReader, 'search'>;
  readonly wallet: WalletReader;
  readonly orchestrator: RunOrchestrator;
  readonly uploads: UploadsService;
  readonly vault: VaultService;
  readonly uploadsData: UploadsDataTarget;
  /** PUBLIC_BASE_URL (its origin is accepted as a form's Origin too). */
  readonly publicBaseUrl?: string | undefined;
}
