import { isUniqueViolation, type PrismaClient } from '@svc/db';
import { ACCOUNT_ROLES, type AccountRole, isAccountRole, normalizeEmail } from './account-roles';
import { checkPasswordPolicy, hashPassword, verifyPassword } from './password';

const MAX_EMAIL_LENGTH = 254; // RFC 5321's path limit
// Deliberately loose: one @, something on each side, a dot in the domain, no spaces. The address is
// a sign-in name; nothing is ever sent to it, so a stricter check would only refuse real addresses.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$|^[^\s@]+@localhost$/;

/** Thrown by `create` when the email already has an account (any client). */
export class AccountExistsError extends Error {
  override readonly name = 'AccountExistsError';
  constructor(readonly email: string) {
    super(`an account with email ${email} already exists`);
  }
}

/** Thrown by the admin operations when no account has that email. */
export class AccountNotFoundError extends Error {
  override readonly name = 'AccountNotFoundError';
  constructor(readonly email: string) {
    super(`no account with email ${email}`);
  }
}

/** An account as read (never its password hash). */
export interface DashboardAccount {
  id: string;
  /** auth.clients.id of the client the person signs in for (no join: another service's schema). */
  clientId: string;
  email: string;
  /** One of ACCOUNT_ROLES for rows this store wrote; kept a string so an unknown role is visible. */
  role: string;
  createdAt: Date;
  disabledAt: Date | null;
  passwordChangedAt: Date;
}

export interface CreateAccountInput {
  clientId: string;
  email: string;
  role: AccountRole;
  /** Plain password (policy-checked, hashed here, never stored). */
  password: string;
}

export interface AccountStoreOptions {
  /** Clock, for tests. */
  now?: () => Date;
}

const ACCOUNT_SELECT = {
  id: true,
  clientId: true,
  email: true,
  role: true,
  createdAt: true,
  disabledAt: true,
  passwordChangedAt: true,
} as const;

/** The account's own fields of a row: one read for sign-in also holds the password hash, which stays here. */
function toAccount(row: DashboardAccount): DashboardAccount {
  return {
    id: row.id,
    clientId: row.clientId,
    email: row.email,
    role: row.role,
    createdAt: row.createdAt,
    disabledAt: row.disabledAt,
    passwordChangedAt: row.passwordChangedAt,
  };
}

/** Dashboard accounts (`dashboard.accounts`, the dashboard process's schema). */
export class AccountStore {
  private readonly now: () => Date;

  constructor(
    private readonly prisma: PrismaClient,
    options: AccountStoreOptions = {},
  ) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Creates an account. Throws RangeError (bad email or role), PasswordPolicyError, and
   * AccountExistsError when the email is taken. The client is not checked here (no foreign key into
   * the gateway's `auth` schema): the admin CLI and the launcher resolve it first.
   */
  async create(input: CreateAccountInput): Promise<DashboardAccount> {
    const email = normalizeEmail(input.email);
    if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) {
      throw new RangeError(`not an email address: ${JSON.stringify(input.email)}`);
    }
    if (!isAccountRole(input.role)) {
      throw new RangeError(`unknown role ${JSON.stringify(input.role)} (roles: ${ACCOUNT_ROLES.join(', ')})`);
    }
    checkPasswordPolicy(input.password);
    const passwordHash = await hashPassword(input.password);
    const now = this.now();
    try {
      const row = await this.prisma.dashboardAccount.create({
        data: {
          clientId: input.clientId,
          email,
          role: input.role,
          passwordHash,
          createdAt: now,
          passwordChangedAt: now,
        },
        select: ACCOUNT_SELECT,
      });
      return toAccount(row);
    } catch (err) {
      if (isUniqueViolation(err)) throw new AccountExistsError(email);
      throw err;
    }
  }

  /**
   * Sign-in: the account whose email and password match, or null. Unknown emails and disabled
   * accounts verify against a dummy hash, so every refusal costs the same argon2 work.
   */
  async verifyPassword(email: string, password: string): Promise<DashboardAccount | null> {
    const row = await this.prisma.dashboardAccount.findUnique({
      where: { email: normalizeEmail(email) },
      select: { ...ACCOUNT_SELECT, passwordHash: true },
    });
    const usable = row !== null && row.disabledAt === null ? row : null;
    const matches = await verifyPassword(usable?.passwordHash ?? null, password);
    return usable !== null && matches ? toAccount(usable) : null;
  }

  async findByEmail(email: string): Promise<DashboardAccount | null> {
    const row = await this.prisma.dashboardAccount.findUnique({
      where: { email: normalizeEmail(email) },
      select: ACCOUNT_SELECT,
    });
    return row === null ? null : toAccount(row);
  }

  async findById(id: string): Promise<DashboardAccount | null> {
    const row = await this.prisma.dashboardAccount.findUnique({ where: { id }, select: ACCOUNT_SELECT });
    return row === null ? null : toAccount(row);
  }

  /** Accounts ordered by client id then email, optionally of one client. */
  async list(filter: { clientId?: string } = {}): Promise<DashboardAccount[]> {
    const rows = await this.prisma.dashboardAccount.findMany({
      where: filter.clientId === undefined ? {} : { clientId: filter.clientId },
      select: ACCOUNT_SELECT,
      orderBy: [{ clientId: 'asc' }, { email: 'asc' }],
    });
    return rows.map(toAccount);
  }

  /**
   * Sets a new password and revokes every session of the account, in one transaction. Throws
   * PasswordPolicyError or AccountNotFoundError. Returns the number of sessions revoked.
   */
  async setPassword(email: string, password: string): Promise<{ revokedSessions: number }> {
    const normalized = normalizeEmail(email);
    const passwordHash = await hashPassword(password);
    const now = this.now();
    return this.prisma.$transaction(async (tx) => {
      const { count } = await tx.dashboardAccount.updateMany({
        where: { email: normalized },
        data: { passwordHash, passwordChangedAt: now },
      });
      if (count === 0) throw new AccountNotFoundError(normalized);
      const revoked = await tx.dashboardSession.updateMany({
        where: { account: { email: normalized }, revokedAt: null },
        data: { revokedAt: now },
      });
      return { revokedSessions: revoked.count };
    });
  }

  /**
   * Disables an account (it can no longer sign in) and revokes its sessions. Idempotent: an account
   * already disabled keeps its first disabled_at. Throws AccountNotFoundError.
   */
  async disable(email: string): Promise<{ disabledAt: Date; revokedSessions: number }> {
    const normalized = normalizeEmail(email);
    const now = this.now();
    return this.prisma.$transaction(async (tx) => {
      const row = await tx.dashboardAccount.findUnique({
        where: { email: normalized },
        select: { id: true, disabledAt: true },
      });
      if (row === null) throw new AccountNotFoundError(normalized);
      if (row.disabledAt === null) {
        await tx.dashboardAccount.update({ where: { id: row.id }, data: { disabledAt: now } });
      }
      const revoked = await tx.dashboardSession.updateMany({
        where: { accountId: row.id, revokedAt: null },
        data: { revokedAt: now },
      });
      return { disabledAt: row.disabledAt ?? now, revokedSessions: revoked.count };
    });
  }

  /** Signs an account out everywhere (admin CLI): revokes its live sessions. Throws AccountNotFoundError. */
  async revokeSessions(email: string): Promise<{ revokedSessions: number }> {
    const normalized = normalizeEmail(email);
    const row = await this.prisma.dashboardAccount.findUnique({
      where: { email: normalized },
      select: { id: true },
    });
    if (row === null) throw new AccountNotFoundError(normalized);
    const revoked = await this.prisma.dashboardSession.updateMany({
      where: { accountId: row.id, revokedAt: null },
      data: { revokedAt: this.now() },
    });
    return { revokedSessions: revoked.count };
  }
}
