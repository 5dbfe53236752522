import { AccountStore, ApiKeyStore } from '@svc/auth';
import { createPrismaClient, Prisma, type PrismaClient } from '@svc/db';
import { type AccountArgs, type AdminArgs, parseAdminArgs, UsageError, usage } from './args';
import { executeAccountCommand, readPasswordFromStdin } from './commands/accounts';
import { createKey } from './commands/create-key';
import { listKeys } from './commands/list-keys';
import { revokeKey } from './commands/revoke-key';
import { setBalance } from './commands/set-balance';
import { setRateLimit } from './commands/set-rate-limit';
import { setSpendCap } from './commands/set-spend-cap';
import { resolveDatabaseUrl } from './database-url';
import { publishKeyRevoked, resolveBusSettings } from './revocation-event';
import type { VaultArgs } from './vault-args';
import { executeVault } from './vault-commands';

// `pnpm admin <command>`: operator CLI. stdout carries exactly one JSON value per run (so it can be
// piped into jq or a secret store); every message goes to stderr. Exit codes: 0 ok, 1 runtime
// failure, 2 usage error.
const EXIT_OK = 0;
const EXIT_FAILURE = 1;
const EXIT_USAGE = 2;

type CommandArgs = Exclude<AdminArgs, { command: 'help' } | VaultArgs>;

// What a gateway that does not hear the event still guarantees (its API_KEY_CACHE_TTL_MS default).
const AGE_BOUND = 'gateways refuse it within their API_KEY_CACHE_TTL_MS (default 1 s) anyway';

/** Publishes `apikey.revoked` on the bus found like the database (REDIS_URL or `pnpm start`'s). */
async function notifyGateways(keyId: string): Promise<string> {
  const settings = resolveBusSettings(process.env, process.cwd());
  if (settings === undefined) {
    return `no REDIS_URL and BUS_ENCRYPTION_KEY: gateways not notified; ${AGE_BOUND}`;
  }
  return (await publishKeyRevoked(settings, keyId))
    ? 'gateways notified (apikey.revoked)'
    : `Redis did not take apikey.revoked: ${AGE_BOUND}`;
}

function execute(prisma: PrismaClient, args: CommandArgs): Promise<unknown> {
  switch (args.command) {
    case 'create-key':
      return createKey(new ApiKeyStore(prisma), args);
    case 'list-keys':
      return listKeys(new ApiKeyStore(prisma), args);
    case 'revoke-key':
      return revokeKey(new ApiKeyStore(prisma), args, notifyGateways, (line) =>
        process.stderr.write(`admin: ${line}\n`),
      );
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
        readPasswordFromStdin(),
      );
  }
}

async function run(argv: readonly string[]): Promise<number> {
  let args: AdminArgs;
  try {
    args = parseAdminArgs(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`admin: ${err.message}\n\n${usage(err.command ?? null)}`);
      return EXIT_USAGE;
    }
    throw err;
  }
  if (args.command === 'help') {
    process.stdout.write(usage(args.topic));
    return EXIT_OK;
  }

  // The vault commands need no database: a keyring file, or the running vault over the bus.
  if (args.command === 'vault') {
    const result = await executeVault(args, process.env, process.cwd(), (line) =>
      process.stderr.write(`admin: ${line}\n`),
    );
    process.stdout.write(`${JSON.stringify(result.output)}\n`);
    return result.failed ? EXIT_FAILURE : EXIT_OK;
  }

  // process.env is read here (DATABASE_URL, else the launcher's <DATA_DIR>/runtime.json) and, for
  // revoke-key, in notifyGateways (the bus the gateways listen on).
  const databaseUrl = resolveDatabaseUrl(process.env, process.cwd());
  const prisma = createPrismaClient(databaseUrl);
  try {
    const output = await execute(prisma, args);
    process.stdout.write(`${JSON.stringify(output)}\n`);
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

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`admin: ${describeFailure(err)}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
