import { ApiKeyStore } from '@svc/auth';
import { AccountStore } from '@svc/auth/accounts';
import type { EnvSource } from '@svc/config';
import { createPrismaClient, Prisma, type PrismaClient } from '@svc/db';
import { type AccountArgs, type AdminArgs, parseAdminArgs, UsageError, usage } from './args';
import { executeAccountCommand } from './commands/accounts';
import { createKey } from './commands/create-key';
import { executeInstances } from './commands/instances';
import { listKeys } from './commands/list-keys';
import { revokeKey } from './commands/revoke-key';
import { setBalance } from './commands/set-balance';
import { setRateLimit } from './commands/set-rate-limit';
import { setSpendCap } from './commands/set-spend-cap';
import { resolveDatabaseUrl } from './database-url';
import { resolveBusSettings } from './platform-bus';
import { publishKeyRevoked } from './revocation-event';
import type { VaultArgs } from './vault-args';
import { executeVault } from './vault-commands';

// `pnpm admin <command>`: operator CLI. stdout carries exactly one JSON value per run (so it can be
// piped into jq or a secret store); every message goes to stderr. Exit codes: 0 ok, 1 runtime
// failure, 2 usage error. runAdmin is the whole CLI; main.ts hands it this process's environment,
// cwd, streams and stdin (tests call it with their own, saving a node + tsx start per command).
const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

type CommandArgs = Exclude<AdminArgs, { command: 'help' } | { command: 'instances' } | VaultArgs>;

/** What the CLI reads and writes of its process (main.ts: process.env, process.cwd(), …). */
export interface AdminIo {
  readonly env: EnvSource;
  readonly cwd: string;
  /** The one JSON value (or the usage of --help). */
  stdout(text: string): void;
  /** Every message for the operator. */
  stderr(text: string): void;
  /** `--password-stdin`: the first line of standard input. */
  readPassword(): Promise<string>;
}

/** Lines for the operator go to stderr, `admin: ` first (stdout carries the one JSON value). */
function reporter(io: AdminIo): (line: string) => void {
  return (line) => io.stderr(`admin: ${line}\n`);
}

// What a gateway that does not hear the event still guarantees (its API_KEY_CACHE_TTL_MS default).
const AGE_BOUND = 'gateways refuse it within their API_KEY_CACHE_TTL_MS (default 1 s) anyway';

/** Publishes `apikey.revoked` on the platform's bus (the running `pnpm start`'s, or REDIS_URL's). */
async function notifyGateways(io: AdminIo, keyId: string): Promise<string> {
  let settings: ReturnType<typeof resolveBusSettings>;
  try {
    settings = resolveBusSettings(io.env, io.cwd);
  } catch (err) {
    // Never a throw (NotifyGateways): the key is revoked in the database already.
    return `gateways not notified: ${err instanceof Error ? err.message : String(err)}; ${AGE_BOUND}`;
  }
  const receivers = await publishKeyRevoked(settings, keyId);
  if (receivers === undefined) return `Redis did not take apikey.revoked (${settings.origin}): ${AGE_BOUND}`;
  // 0: delivered to nobody, e.g. a BUS_PREFIX no gateway uses; said at once rather than guessed.
  return receivers > 0
    ? `gateways notified (apikey.revoked reached ${receivers} subscriber${receivers === 1 ? '' : 's'} on ${settings.origin})`
    : `no gateway listens on ${settings.origin}: not notified; ${AGE_BOUND}`;
}

function execute(io: AdminIo, prisma: PrismaClient, args: CommandArgs): Promise<unknown> {
  const report = reporter(io);
  switch (args.command) {
    case 'create-key':
      return createKey(new ApiKeyStore(prisma), args);
    case 'list-keys':
      return listKeys(new ApiKeyStore(prisma), args);
    case 'revoke-key':
      return revokeKey(new ApiKeyStore(prisma), args, (keyId) => notifyGateways(io, keyId), report);
    case 'set-balance':
      return setBalance(prisma, args);
    case 'set-spend-cap':
      return setSpendCap(prisma, args);
    case 'set-rate-limit':
      return setRateLimit(prisma, args);
    case 'create-account':
    case 'list-accounts':
    case 'reset-password':
    case 'disable-account':
    case 'revoke-sessions':
      return executeAccountCommand(prisma, new AccountStore(prisma), args satisfies AccountArgs, () =>
        io.readPassword(),
      );
  }
}

async function run(argv: readonly string[], io: AdminIo): Promise<number> {
  const report = reporter(io);
  let args: AdminArgs;
  try {
    args = parseAdminArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      io.stderr(`admin: ${err.message}\n\n${usage(err.command ?? null)}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  if (args.command === 'help') {
    io.stdout(usage(args.topic));
    return EXIT_OK;
  }

  // Neither the vault commands nor `instances` need the database: a keyring file, the running
  // vault over the bus, the launchers' instance records and the bus presence.
  if (args.command === 'instances') {
    io.stdout(`${JSON.stringify(await executeInstances(io.env, io.cwd, report))}\n`);
    return EXIT_OK;
  }
  if (args.command === 'vault') {
    const result = await executeVault(args, io.env, io.cwd, report);
    io.stdout(`${JSON.stringify(result.output)}\n`);
    return result.failed ? EXIT_FAILURE : EXIT_OK;
  }

  // The environment is read here (DATABASE_URL, else the launcher's <DATA_DIR>/runtime.json) and,
  // for revoke-key, in notifyGateways (the bus the gateways listen on).
  const databaseUrl = resolveDatabaseUrl(io.env, io.cwd);
  const prisma = createPrismaClient(databaseUrl);
  try {
    const output = await execute(io, prisma, args);
    io.stdout(`${JSON.stringify(output)}\n`);
    return EXIT_OK;
  } finally {
    await prisma.$disconnect();
  }
}

/**
 * One line for the operator. Prisma errors open with a multi-line "Invalid `…` invocation" code
 * excerpt; their last line is the actual cause ("Can't reach database server at …").
 */
function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) {
    return String(err);
  }
  if (!err.name.startsWith('PrismaClient')) {
    return err.message;
  }
  const cause = err.message.split('\n').findLast((line) => line.trim() !== '') ?? err.message;
  // P2021: table missing, i.e. a database the migrations never ran on.
  const missingTable = err instanceof Prisma.PrismaClientKnownRequestError && err.code === 'P2021';
  return `database: ${cause.trim()}${missingTable ? ' (run `pnpm migrate` first)' : ''}`;
}

/** Runs `admin <argv…>` and resolves to its exit code; a failure is one `admin: …` line on stderr (exit 1). */
export async function runAdmin(argv: readonly string[], io: AdminIo): Promise<number> {
  try {
    return await run(argv, io);
  } catch (err) {
    io.stderr(`admin: ${describeFailure(err)}\n`);
    return EXIT_FAILURE;
  }
}
