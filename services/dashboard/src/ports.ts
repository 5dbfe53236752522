import type { ServiceClient } from '@svc/bus';
import type { PlatformCatalog, RpcService } from '@svc/contracts';
import type { UploadsDataTarget } from '@svc/http-kit';
import type { Logger } from '@svc/log';
import type { OneTimeNotes } from './one-time-notes';

/**
 * What the dashboard needs from the platform, as ports: the RPC services' typed clients (a port is
 * a `Pick<>` of one, so a fake cannot disagree with the catalog), its own stores (accounts, sessions,
 * the sign-in gate, one-time notes), and the uploads service's HTTP server. main.ts makes them over
 * the bus, PostgreSQL and Redis; tests pass in-memory ones.
 */

/** The client of RPC service `S` (@svc/bus serviceClient over the platform's catalog). */
export type PlatformClient<S extends RpcService> = ServiceClient<PlatformCatalog, S>;

/** The signed-in person, as every page sees it. */
export interface SignedInAccount {
  readonly id: string;
  readonly email: string;
  /** `owner`, `developer` or `viewer` (roles.ts); anything else is refused every page. */
  readonly role: string;
  readonly clientId: string;
  /** The client's name (the gateway's `keys.describeClient`), shown in the header. */
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

/** The sign-in throttle (sign-in/): per account and per source address. */
export interface SignInGate {
  /** Seconds until another attempt is allowed, or 0 when one is. */
  retryAfterSeconds(email: string, ip: string): Promise<number>;
  failed(email: string, ip: string): Promise<void>;
  succeeded(email: string, ip: string): Promise<void>;
}

/** The dashboard's own state: people, sessions, sign-in attempts, one-time notes. */
export interface DashboardStores {
  readonly accounts: DashboardAccounts;
  readonly sessions: DashboardSessions;
  readonly signInGate: SignInGate;
  /**
   * What a form action shows once after its redirect (a new API key): sealed server-side beside the
   * session, read once (one-time-notes.ts; main.ts keeps them in Redis).
   */
  readonly oneTimeNotes: OneTimeNotes;
  /** ms since the epoch; tests move the clock. Default Date.now. */
  readonly now?: () => number;
}

/** The platform's services the pages call, each a Pick<> of its RPC client. */
export interface PlatformPorts {
  /** The capabilities the runs page's filter offers. */
  readonly registry: Pick<PlatformClient<'registry'>, 'search'>;
  readonly wallet: Pick<
    PlatformClient<'wallet'>,
    'balance' | 'usageStatement' | 'spendDiagnostics' | 'dailySpend'
  >;
  readonly orchestrator: Pick<
    PlatformClient<'orchestrator'>,
    'listRuns' | 'getRun' | 'runTimeline' | 'receipt' | 'cancelRun' | 'runCounts'
  >;
  readonly uploads: Pick<PlatformClient<'uploads'>, 'createSession' | 'listArtifacts'>;
  readonly vault: Pick<
    PlatformClient<'vault'>,
    | 'listFields'
    | 'saveField'
    | 'deleteField'
    | 'listExtractions'
    | 'getExtraction'
    | 'reviewExtraction'
    | 'fillDocument'
    | 'listDocuments'
    | 'getDocument'
    | 'audit'
  >;
  /** A client's name and API keys: the gateway's `auth` schema (`keys.*`, answered by the gateway). */
  readonly keys: Pick<PlatformClient<'keys'>, 'describeClient' | 'listKeys' | 'createKey' | 'revokeKey'>;
}

/** Everything a page may use (page-kit.ts hands it to page modules as `kit.deps`). */
export interface DashboardDeps extends DashboardStores, PlatformPorts {
  readonly logger: Logger;
  /** The uploads service's internal HTTP server (UPLOADS_URL): template bytes and downloads. */
  readonly uploadsData: UploadsDataTarget;
  /** PUBLIC_BASE_URL (its origin is accepted as a form's Origin too). */
  readonly publicBaseUrl?: string | undefined;
}
