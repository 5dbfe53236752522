import { type ParseArgsConfig, parseArgs } from 'node:util';
import {
  ACCOUNT_ROLES,
  type AccountRole,
  allScopes,
  extractKeyId,
  isAccountRole,
  normalizeEmail,
  parseScopes,
  UnknownScopeError,
} from '@svc/auth';
import {
  isRateLimitBudget,
  microsFromUsd,
  RATE_LIMIT_BUDGETS,
  type RateLimitBudget,
  type Scope,
} from '@svc/contracts';
import { parseVaultArgs, VAULT_USAGE, type VaultArgs, VaultUsageError } from './vault-args';

// Command-line parsing for `pnpm admin <command>`. Everything that can be checked without the
// database is checked here, so mistakes exit 2 (usage) before any connection is made.

export const COMMAND_NAMES = [
  'create-key',
  'list-keys',
  'revoke-key',
  'set-balance',
  'set-spend-cap',
  'set-rate-limit',
  'create-account',
  'list-accounts',
  'reset-password',
  'disable-account',
  'revoke-sessions',
  'vault',
  'instances',
] as const;
export type CommandName = (typeof COMMAND_NAMES)[number];

/** A mistake on the command line: main prints the message and usage on stderr and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';

  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message);
  }
}

export interface CreateKeyArgs {
  command: 'create-key';
  clientName: string;
  scopes: Scope[];
  label: string | null;
  /** Opening balance, micro-USD (1 USD = 1 000 000); null when not given. */
  balanceMicros: bigint | null;
  /** Spend cap, micro-USD; null when not given. */
  spendCapMicros: bigint | null;
}

export interface ListKeysArgs {
  command: 'list-keys';
  clientName: string | null;
}

export interface RevokeKeyArgs {
  command: 'revoke-key';
  keyId: string;
}

export interface SetBalanceArgs {
  command: 'set-balance';
  clientName: string;
  /** The balance to reach, micro-USD (>= 0). */
  balanceMicros: bigint;
  /** Note on the adjustment line; null: a default naming the new balance. */
  note: string | null;
}

export interface SetSpendCapArgs {
  command: 'set-spend-cap';
  clientName: string;
  /** The monthly spend cap, micro-USD; null removes the cap (`--none`). */
  spendCapMicros: bigint | null;
}

export interface SetRateLimitArgs {
  command: 'set-rate-limit';
  clientName: string;
  budget: RateLimitBudget;
  /** The override to store; null removes it (`--reset`): the gateway's defaults apply again. */
  limit: { quota: number; windowSeconds: number } | null;
}

export interface CreateAccountArgs {
  command: 'create-account';
  clientName: string;
  email: string;
  role: AccountRole;
  /** Read the password from stdin; otherwise one is generated and printed once. */
  passwordFromStdin: boolean;
}

export interface ListAccountsArgs {
  command: 'list-accounts';
  clientName: string | null;
}

export interface ResetPasswordArgs {
  command: 'reset-password';
  email: string;
  passwordFromStdin: boolean;
}

/** disable-account and revoke-sessions: one account by email. */
export interface AccountByEmailArgs {
  command: 'disable-account' | 'revoke-sessions';
  email: string;
}

export type AccountArgs = CreateAccountArgs | ListAccountsArgs | ResetPasswordArgs | AccountByEmailArgs;

export interface InstancesArgs {
  command: 'instances';
}

export interface HelpArgs {
  command: 'help';
  topic: CommandName | null;
}

export type AdminArgs =
  | CreateKeyArgs
  | ListKeysArgs
  | RevokeKeyArgs
  | SetBalanceArgs
  | SetSpendCapArgs
  | SetRateLimitArgs
  | AccountArgs
  | VaultArgs
  | InstancesArgs
  | HelpArgs;

const USAGE: Record<CommandName, string> = {
  'create-key':
    'pnpm admin create-key --client NAME --scopes a,b,c [--label TEXT] [--balance-usd N] [--spend-cap-usd N]\n' +
    '    Creates an API key (and the client if new); prints {"client_id","api_key"}. The key is shown once.\n' +
    '    --balance-usd adds an opening credit, --spend-cap-usd sets the wallet spend cap (USD, up to 6 decimals).',
  'list-keys': 'pnpm admin list-keys [--client NAME]\n' + '    Prints a JSON array of keys (never secrets).',
  'revoke-key': 'pnpm admin revoke-key KEY_ID|API_KEY\n' + '    Revokes a key; prints {"key_id","revoked"}.',
  'set-balance':
    'pnpm admin set-balance --client NAME --usd N [--note TEXT]\n' +
    '    Sets the wallet balance to N USD with one adjustment line of N minus the current balance (none when it\n' +
    '    already is N; held money is not touched); prints {"client_id","balance_usd","adjustment_usd"}.',
  'set-spend-cap':
    'pnpm admin set-spend-cap --client NAME (--usd N | --none)\n' +
    '    Sets the monthly spend cap (UTC calendar month) to N USD, or removes it; prints {"client_id","spend_cap_usd"}.',
  'set-rate-limit':
    `pnpm admin set-rate-limit --client NAME --budget ${RATE_LIMIT_BUDGETS.join('|')} (--per-second N [--burst B] | --reset)\n` +
    '    Overrides one rate-limit budget of every key of the client: N requests per second sustained, up to B at\n' +
    '    once (default N; B must be a whole multiple of N: the budget is B requests per B/N s). --reset restores\n' +
    "    the default. Not scaled by RATE_LIMIT_MULTIPLIER; in force within the gateways' API key cache age\n" +
    '    (API_KEY_CACHE_TTL_MS, 1 s). Prints\n' +
    '    {"client_id","rate_limits"}.',
  'create-account':
    `pnpm admin create-account --client NAME --email EMAIL --role ${ACCOUNT_ROLES.join('|')} [--password-stdin]\n` +
    '    Creates a dashboard account for an existing client. The password is read from stdin (--password-stdin,\n' +
    '    first line, at least 12 characters) or generated and printed once as "password". Prints\n' +
    '    {"account_id","client_id","email","role"[,"password"]}.',
  'list-accounts':
    'pnpm admin list-accounts [--client NAME]\n' +
    '    Prints a JSON array of dashboard accounts (never passwords).',
  'reset-password':
    'pnpm admin reset-password --email EMAIL [--password-stdin]\n' +
    '    Sets a new password (stdin, or generated and printed once) and signs the account out everywhere; prints\n' +
    '    {"email","revoked_sessions"[,"password"]}.',
  'disable-account':
    'pnpm admin disable-account --email EMAIL\n' +
    '    The account can no longer sign in; its sessions end. Prints {"email","disabled_at","revoked_sessions"}.',
  'revoke-sessions':
    'pnpm admin revoke-sessions --email EMAIL\n' +
    '    Signs the account out everywhere; prints {"email","revoked_sessions"}.',
  vault: VAULT_USAGE,
  instances:
    'pnpm admin instances\n' +
    '    Every process of the running platform with its health address (HEALTH_PORT: /healthz, /readyz,\n' +
    '    /metrics): those `pnpm start` and `pnpm worker` started here, and any other reporting on the bus.\n' +
    '    Prints [{"service","host","pid","health_url","health","on_bus","started_by"}].',
};

export function usage(topic: CommandName | null = null): string {
  const commands = topic === null ? COMMAND_NAMES : [topic];
  const lines = ['Usage:', ...commands.map((name) => `  ${USAGE[name]}`)];
  if (topic === null || topic === 'create-key') {
    lines.push('', `Scopes: ${allScopes().join(', ')}`);
  }
  lines.push(
    '',
    'Database: DATABASE_URL, or the one recorded by `pnpm start` in $DATA_DIR/runtime.json (default .data/runtime.json).',
    "Bus (vault, revoke-key, instances): the running `pnpm start`'s, as recorded there (Redis, BUS_PREFIX, key file),",
    '  else REDIS_URL, BUS_PREFIX and BUS_ENCRYPTION_KEY; an error names the variable that is missing.',
    'Exit codes: 0 ok, 1 runtime failure, 2 usage error.',
  );
  return `${lines.join('\n')}\n`;
}

function isCommandName(value: string): value is CommandName {
  return COMMAND_NAMES.some((name) => name === value);
}

function isHelpFlag(value: string | undefined): boolean {
  return value === '--help' || value === '-h' || value === 'help';
}

function parseUsd(text: string, option: string, command: CommandName): bigint {
  let micros: bigint;
  try {
    micros = microsFromUsd(text.trim());
  } catch (err) {
    // microsFromUsd says why: negative, more than 6 decimals, or not a decimal at all.
    const reason = err instanceof Error ? err.message : 'not a USD amount';
    throw new UsageError(`${option}: ${reason} (e.g. 25 or 12.345678)`, command);
  }
  if (micros < 0n) {
    throw new UsageError(`${option} must be >= 0`, command);
  }
  return micros;
}

function required(value: string | undefined, option: string, command: CommandName): string {
  if (value === undefined || value.trim() === '') {
    throw new UsageError(`${option} is required`, command);
  }
  return value;
}

/** `--help` / `-h`, which every command takes. */
const HELP_OPTION = { help: { type: 'boolean', short: 'h' } } as const;

type ParseArgsOptionsConfig = NonNullable<ParseArgsConfig['options']>;

interface CommandConfig<O extends ParseArgsOptionsConfig> {
  args: string[];
  strict: true;
  allowPositionals: boolean;
  options: O & typeof HELP_OPTION;
}
type ParsedCommand<O extends ParseArgsOptionsConfig> = ReturnType<typeof parseArgs<CommandConfig<O>>>;

/**
 * One command's parser: its options (strict: an unknown option or a missing value is a usage
 * error; positionals only where `allowPositionals`), with `--help` beside them asking for the
 * command's usage instead, and what `build` makes of the values.
 */
function commandParser<const O extends ParseArgsOptionsConfig, R extends AdminArgs>(
  command: CommandName,
  options: O,
  build: (parsed: ParsedCommand<O>) => R,
  allowPositionals = false,
): (args: string[]) => R | HelpArgs {
  return (args) => {
    const parsed = parseArgs<CommandConfig<O>>({
      args,
      strict: true,
      allowPositionals,
      options: { ...options, ...HELP_OPTION },
    });
    // (The values' type stays open while O is generic; HELP_OPTION makes `help` a boolean.)
    if ((parsed.values as { help?: boolean }).help) return { command: 'help', topic: command };
    return build(parsed);
  };
}

/** An optional text option: trimmed, null when absent or blank. */
function optionalText(value: string | undefined): string | null {
  const text = value?.trim() ?? '';
  return text === '' ? null : text;
}

const parseCreateKey = commandParser(
  'create-key',
  {
    client: { type: 'string' },
    scopes: { type: 'string' },
    label: { type: 'string' },
    'balance-usd': { type: 'string' },
    'spend-cap-usd': { type: 'string' },
  },
  ({ values }): CreateKeyArgs => {
    const clientName = required(values.client, '--client', 'create-key').trim();
    const scopeList = required(values.scopes, '--scopes', 'create-key')
      .split(',')
      .map((scope) => scope.trim())
      .filter((scope) => scope !== '');
    let scopes: Scope[];
    try {
      scopes = parseScopes(scopeList);
    } catch (err) {
      throw err instanceof UnknownScopeError ? new UsageError(err.message, 'create-key') : err;
    }
    if (scopes.length === 0) {
      throw new UsageError('--scopes needs at least one scope', 'create-key');
    }
    const balance = values['balance-usd'];
    const cap = values['spend-cap-usd'];
    return {
      command: 'create-key',
      clientName,
      scopes,
      label: optionalText(values.label),
      balanceMicros: balance === undefined ? null : parseUsd(balance, '--balance-usd', 'create-key'),
      spendCapMicros: cap === undefined ? null : parseUsd(cap, '--spend-cap-usd', 'create-key'),
    };
  },
);

/** list-keys and list-accounts: everything, or one client's (`--client`). */
function byClientParser(command: 'list-keys' | 'list-accounts') {
  return commandParser(
    command,
    { client: { type: 'string' } },
    ({ values }): ListKeysArgs | ListAccountsArgs => ({
      command,
      clientName: values.client === undefined ? null : values.client.trim(),
    }),
  );
}

const parseRevokeKey = commandParser(
  'revoke-key',
  {},
  ({ positionals }): RevokeKeyArgs => {
    if (positionals.length !== 1 || positionals[0] === undefined) {
      throw new UsageError('revoke-key takes exactly one KEY_ID or API key', 'revoke-key');
    }
    const keyId = extractKeyId(positionals[0]);
    if (keyId === null) {
      // Never echo the argument: it may be a (mistyped) secret key.
      throw new UsageError('not a key id (12 chars [a-z0-9]) nor a well-formed API key', 'revoke-key');
    }
    return { command: 'revoke-key', keyId };
  },
  true,
);

function isParseArgsError(err: unknown): err is { code: string; message: string } {
  return (
    typeof err === 'object' &&
    err !== null &&
    'code' in err &&
    typeof err.code === 'string' &&
    err.code.startsWith('ERR_PARSE_ARGS_') &&
    'message' in err &&
    typeof err.message === 'string'
  );
}

const parseSetBalance = commandParser(
  'set-balance',
  { client: { type: 'string' }, usd: { type: 'string' }, note: { type: 'string' } },
  ({ values }): SetBalanceArgs => ({
    command: 'set-balance',
    clientName: required(values.client, '--client', 'set-balance').trim(),
    balanceMicros: parseUsd(required(values.usd, '--usd', 'set-balance'), '--usd', 'set-balance'),
    note: optionalText(values.note),
  }),
);

const parseSetSpendCap = commandParser(
  'set-spend-cap',
  { client: { type: 'string' }, usd: { type: 'string' }, none: { type: 'boolean' } },
  ({ values }): SetSpendCapArgs => {
    const clientName = required(values.client, '--client', 'set-spend-cap').trim();
    if ((values.usd === undefined) === (values.none !== true)) {
      throw new UsageError('give exactly one of --usd N or --none', 'set-spend-cap');
    }
    return {
      command: 'set-spend-cap',
      clientName,
      spendCapMicros: values.usd === undefined ? null : parseUsd(values.usd, '--usd', 'set-spend-cap'),
    };
  },
);

// The largest override: a window of an hour (gateway rate-limit/budgets.ts MAX_WINDOW_SECONDS).
const MAX_WINDOW_SECONDS = 3_600;
const MAX_PER_SECOND = 1_000_000;

/** A positive number with at most 3 decimals (`0.5` per second: one request every 2 s). */
function parsePositive(text: string, option: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (!/^\d+(?:\.\d{1,3})?$/.test(trimmed) || !(value > 0) || value > MAX_PER_SECOND) {
    throw new UsageError(
      `${option} must be a number > 0 and <= ${MAX_PER_SECOND} (e.g. 5 or 0.5)`,
      'set-rate-limit',
    );
  }
  return value;
}

const parseSetRateLimit = commandParser(
  'set-rate-limit',
  {
    client: { type: 'string' },
    budget: { type: 'string' },
    'per-second': { type: 'string' },
    burst: { type: 'string' },
    reset: { type: 'boolean' },
  },
  ({ values }): SetRateLimitArgs => {
    const clientName = required(values.client, '--client', 'set-rate-limit').trim();
    const budget = required(values.budget, '--budget', 'set-rate-limit').trim();
    if (!isRateLimitBudget(budget)) {
      throw new UsageError(`--budget must be one of ${RATE_LIMIT_BUDGETS.join(', ')}`, 'set-rate-limit');
    }
    const perSecondText = values['per-second'];
    if ((perSecondText === undefined) === (values.reset !== true)) {
      throw new UsageError('give exactly one of --per-second N or --reset', 'set-rate-limit');
    }
    if (perSecondText === undefined) {
      if (values.burst !== undefined)
        throw new UsageError('--burst goes with --per-second', 'set-rate-limit');
      return { command: 'set-rate-limit', clientName, budget, limit: null };
    }
    const perSecond = parsePositive(perSecondText, '--per-second');
    const burst = values.burst === undefined ? Math.ceil(perSecond) : parsePositive(values.burst, '--burst');
    // The limiter counts whole requests in whole-second windows: the window is burst / rate seconds.
    // (Rounded first: 3 / 0.3 is 10.000000000000002 in binary floating point.)
    const windowSeconds = Math.round(burst / perSecond);
    const whole = Math.abs(windowSeconds * perSecond - burst) < 1e-9 && windowSeconds >= 1;
    if (!Number.isInteger(burst) || !whole || windowSeconds > MAX_WINDOW_SECONDS) {
      throw new UsageError(
        `--burst must be a whole number of requests and a whole multiple of --per-second, at most ${MAX_WINDOW_SECONDS} ` +
          `times it (the budget is B requests per B/N seconds); got ${burst} / ${perSecond}`,
        'set-rate-limit',
      );
    }
    return { command: 'set-rate-limit', clientName, budget, limit: { quota: burst, windowSeconds } };
  },
);

function parseEmail(value: string | undefined, command: CommandName): string {
  const email = normalizeEmail(required(value, '--email', command));
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) {
    throw new UsageError('--email must be an email address', command);
  }
  return email;
}

const parseCreateAccount = commandParser(
  'create-account',
  {
    client: { type: 'string' },
    email: { type: 'string' },
    role: { type: 'string' },
    'password-stdin': { type: 'boolean' },
  },
  ({ values }): CreateAccountArgs => {
    const clientName = required(values.client, '--client', 'create-account').trim();
    const email = parseEmail(values.email, 'create-account');
    const role = required(values.role, '--role', 'create-account').trim();
    if (!isAccountRole(role)) {
      throw new UsageError(`--role must be one of ${ACCOUNT_ROLES.join(', ')}`, 'create-account');
    }
    return {
      command: 'create-account',
      clientName,
      email,
      role,
      passwordFromStdin: values['password-stdin'] === true,
    };
  },
);

const parseResetPassword = commandParser(
  'reset-password',
  { email: { type: 'string' }, 'password-stdin': { type: 'boolean' } },
  ({ values }): ResetPasswordArgs => ({
    command: 'reset-password',
    email: parseEmail(values.email, 'reset-password'),
    passwordFromStdin: values['password-stdin'] === true,
  }),
);

function accountByEmailParser(command: AccountByEmailArgs['command']) {
  return commandParser(command, { email: { type: 'string' } }, ({ values }) => ({
    command,
    email: parseEmail(values.email, command),
  }));
}

function parseVault(args: string[]): VaultArgs | HelpArgs {
  try {
    return parseVaultArgs(args) ?? { command: 'help', topic: 'vault' };
  } catch (err) {
    throw err instanceof VaultUsageError ? new UsageError(err.message, 'vault') : err;
  }
}

const parseInstances = commandParser('instances', {}, (): InstancesArgs => ({ command: 'instances' }));

const PARSERS: Record<CommandName, (args: string[]) => AdminArgs> = {
  'create-key': parseCreateKey,
  'list-keys': byClientParser('list-keys'),
  'revoke-key': parseRevokeKey,
  'set-balance': parseSetBalance,
  'set-spend-cap': parseSetSpendCap,
  'set-rate-limit': parseSetRateLimit,
  'create-account': parseCreateAccount,
  'list-accounts': byClientParser('list-accounts'),
  'reset-password': parseResetPassword,
  'disable-account': accountByEmailParser('disable-account'),
  'revoke-sessions': accountByEmailParser('revoke-sessions'),
  vault: parseVault,
  instances: parseInstances,
};

/** Parses argv (without node and script). Throws UsageError on any mistake. */
export function parseAdminArgs(argv: readonly string[]): AdminArgs {
  const [first, ...rest] = argv;
  if (first === undefined) {
    throw new UsageError('missing command');
  }
  if (isHelpFlag(first)) {
    const topic = rest[0];
    return { command: 'help', topic: topic !== undefined && isCommandName(topic) ? topic : null };
  }
  if (!isCommandName(first)) {
    throw new UsageError(`unknown command "${first}" (commands: ${COMMAND_NAMES.join(', ')})`);
  }
  try {
    return PARSERS[first](rest);
  } catch (err) {
    if (err instanceof UsageError) {
      throw err;
    }
    // node:util parseArgs reports unknown options and missing values with codes ERR_PARSE_ARGS_*
    // (matched by code: the TypeError class differs across realms, e.g. under jest).
    if (isParseArgsError(err)) {
      throw new UsageError(err.message, first);
    }
    throw err;
  }
}
