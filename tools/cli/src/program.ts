import { runCheck } from '@svc/contract-tools/src/check/cli';
import { RUN_LIST_DEFAULT_LIMIT, RUN_LIST_MAX_LIMIT, RUN_STATES, type RunState } from '@svc/contracts';
import { SvcClient } from '@svc/sdk';
import { type Command, Command as CommanderCommand, CommanderError, Option } from 'commander';
import { parseDateFlag, parseDuration, parseInput, parseIntInRange } from './args';
import * as commands from './commands';
import {
  type CliConfig,
  checkBaseUrl,
  configPath,
  loadConfig,
  requireApiKey,
  writeConfigFile,
} from './config';
import { EXIT, EXIT_CODES_HELP } from './exit-codes';
import { type Io, Output } from './output';
import { readSecretLine } from './secret-input';
import { UsageError } from './usage-error';

export const CLI_VERSION = '0.1.0';

export interface CliDeps {
  readonly io: Io;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths (--input @file, upload, --download) are taken from here (pnpm's INIT_CWD first). */
  readonly cwd: string;
  /** Aborted on Ctrl-C (or SIGTERM/SIGHUP while a run is waited for: interrupts.ts). */
  readonly signal?: AbortSignal;
  /** Runs a wait for a run, and its cancel, as a section SIGTERM/SIGHUP do not cut short (main: Interrupts.guard). */
  readonly guard?: <T>(body: () => Promise<T>) => Promise<T>;
  /** `svc login` reads the key from here. */
  readonly readStdin?: () => Promise<string>;
  /** Tests pass their own (a fetch that fails, a short retry). */
  readonly makeClient?: (config: CliConfig, apiKey: string | undefined) => SvcClient;
}

const ENVIRONMENT_HELP = `
Configuration:
  SVC_API_KEY     the API key (never a command-line argument: it would stay in shell history)
  SVC_BASE_URL    the platform (default http://localhost:8080)
  Otherwise $XDG_CONFIG_HOME/svc/config.json or ~/.config/svc/config.json: {"base_url": "…", "api_key": "…"},
  readable by you only (chmod 600); \`svc login\` writes it from stdin.

Output: human text; --json prints exactly the API's JSON answer on stdout, or on failure
  {"ok": false, "error": "…", "status": <HTTP status or null>, "exit_code": <n>}. Progress and messages go to stderr.

${EXIT_CODES_HELP}  svc contract check exits with the checker's own codes (0 compatible, 1 unapproved breaking change, 2 usage, 3 unknown input).
`;

function defaultClient(config: CliConfig, apiKey: string | undefined): SvcClient {
  return new SvcClient({
    baseUrl: config.baseUrl,
    ...(apiKey === undefined ? {} : { apiKey }),
    clientType: 'cli',
  });
}

/** Runs `svc <argv…>` and resolves to its exit code (see EXIT). Never calls process.exit. */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  // `svc contract check …` is `pnpm contract check …` itself: its flags, output and exit codes.
  if (argv[0] === 'contract' && argv[1] === 'check') {
    return runCheck(argv.slice(2), { cwd: deps.cwd, stdout: deps.io.stdout, stderr: deps.io.stderr });
  }
  const json = argv.includes('--json');
  const out = new Output(deps.io, json);
  let exitCode: number = EXIT.ok;
  const program = buildProgram(deps, out, (code) => {
    exitCode = code;
  });
  if (argv.length === 0) {
    deps.io.stderr(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (
        error.exitCode === 0 ||
        error.code === 'commander.helpDisplayed' ||
        error.code === 'commander.version'
      ) {
        return EXIT.ok;
      }
      if (json) out.result(errorJson(error.message.replace(/^error: /, ''), EXIT.usage), () => '');
      return EXIT.usage;
    }
    return out.fail(error);
  }
  return exitCode;
}

function errorJson(message: string, code: number): Record<string, unknown> {
  return { ok: false, error: message, status: null, exit_code: code, kind: 'UsageError' };
}

function buildProgram(deps: CliDeps, out: Output, setExit: (code: number) => void): Command {
  const program = new CommanderCommand('svc');
  program
    .description(
      'The capability service from the command line: search, describe, quote, run, files, account.',
    )
    .version(CLI_VERSION)
    .exitOverride()
    .configureOutput({ writeOut: deps.io.stdout, writeErr: deps.io.stderr })
    .showHelpAfterError('(svc --help for usage)')
    .addHelpText('after', ENVIRONMENT_HELP);

  let config: CliConfig | undefined;
  const client = (needsKey: boolean) => () => {
    config ??= loadConfig(deps.env);
    const apiKey = needsKey ? requireApiKey(config) : config.apiKey;
    return (deps.makeClient ?? defaultClient)(config, apiKey);
  };
  const controller = new AbortController();
  deps.signal?.addEventListener('abort', () => controller.abort(deps.signal?.reason), { once: true });
  const ctx = (needsKey: boolean): commands.CommandContext => ({
    out,
    client: client(needsKey),
    cwd: deps.cwd,
    signal: controller.signal,
    guard: deps.guard ?? ((body) => body()),
  });
  /** Every action: run, turn a throw into its exit code and the error output. */
  const act =
    <A extends unknown[]>(body: (...args: A) => Promise<number>) =>
    async (...args: A) => {
      try {
        setExit(await body(...args));
      } catch (error) {
        setExit(out.fail(error));
      }
    };
  const jsonOption = () => new Option('--json', "print the API's JSON answer (for scripts)");

  program
    .command('search')
    .description('search capabilities (no key needed)')
    .argument('[query]', 'words to search for')
    .option('--category <category>', 'only this category')
    .option('--limit <n>', 'at most n results (1-100, default 20)')
    .addOption(jsonOption())
    .action(
      act(async (query: string | undefined, opts: { category?: string; limit?: string }) =>
        commands.search(ctx(false), {
          ...(query === undefined ? {} : { q: query }),
          ...(opts.category === undefined ? {} : { category: opts.category }),
          ...(opts.limit === undefined ? {} : { limit: parseIntInRange(opts.limit, '--limit', 1, 100) }),
        }),
      ),
    );

  program
    .command('describe')
    .description('a capability, its price, whether it can be run, and its input (no key needed)')
    .argument('<slug>')
    .addOption(jsonOption())
    .action(act(async (slug: string) => commands.describe(ctx(false), slug)));

  const inputOption = () =>
    new Option('--input <json>', 'the input: @file.json, @- (stdin) or \'{"…": …}\'').makeOptionMandatory();

  program
    .command('quote')
    .description('price an input (describes first: a capability that cannot be run is refused, exit 3)')
    .argument('<slug>')
    .addOption(inputOption())
    .addOption(jsonOption())
    .action(
      act(async (slug: string, opts: { input: string }) =>
        commands.quote(ctx(true), slug, parseInput(opts.input, deps.cwd)),
      ),
    );

  program
    .command('run')
    .description(
      'describe, quote and start a run; with --wait, follow it to its end (Ctrl-C or --deadline cancel it on the server)',
    )
    .argument('<slug>')
    .addOption(inputOption())
    .option('--wait', 'wait for the run to finish (exit 0 completed, 1 failed or cancelled, 4 deadline)')
    .option(
      '--deadline <duration>',
      'with --wait: give up (and cancel the run) after this long, e.g. 60s, 5m (default 10m)',
    )
    .option(
      '--idempotency-key <key>',
      'the key of this attempt (default: a new one); repeat it to retry the same run',
    )
    .addOption(jsonOption())
    .action(
      act(
        async (
          slug: string,
          opts: { input: string; wait?: boolean; deadline?: string; idempotencyKey?: string },
        ) => {
          if (opts.deadline !== undefined && opts.wait !== true)
            throw new UsageError('--deadline needs --wait');
          return commands.run(ctx(true), slug, parseInput(opts.input, deps.cwd), {
            wait: opts.wait === true,
            deadlineMs: opts.deadline === undefined ? undefined : parseDuration(opts.deadline),
            idempotencyKey: opts.idempotencyKey,
          });
        },
      ),
    );

  program
    .command('status')
    .description("a run's status record (the result once completed)")
    .argument('<run_id>')
    .addOption(jsonOption())
    .action(act(async (runId: string) => commands.status(ctx(true), runId)));

  program
    .command('cancel')
    .description('cancel a run (a finished run: 409, exit 3)')
    .argument('<run_id>')
    .addOption(jsonOption())
    .action(act(async (runId: string) => commands.cancel(ctx(true), runId)));

  program
    .command('runs')
    .description('your runs, newest first; --all follows every page (--limit is then the page size)')
    .addOption(new Option('--state <state>', 'only runs in this state').choices([...RUN_STATES]))
    .option('--capability <slug>', 'only runs of this capability')
    .option('--from <date>', 'created at or after (2026-11-01 or an RFC 3339 time)')
    .option('--to <date>', 'created before')
    .option(`--limit <n>`, `runs per page (1-${RUN_LIST_MAX_LIMIT}, default ${RUN_LIST_DEFAULT_LIMIT})`)
    .option('--cursor <cursor>', 'the page after a previous answer (its next_cursor; same filters)')
    .option('--all', 'every page')
    .addOption(jsonOption())
    .action(
      act(
        async (opts: {
          state?: string;
          capability?: string;
          from?: string;
          to?: string;
          limit?: string;
          cursor?: string;
          all?: boolean;
        }) =>
          commands.runs(
            ctx(true),
            {
              ...(opts.state === undefined ? {} : { state: opts.state as RunState }),
              ...(opts.capability === undefined ? {} : { capability: opts.capability }),
              ...(opts.from === undefined ? {} : { created_from: parseDateFlag(opts.from, '--from') }),
              ...(opts.to === undefined ? {} : { created_to: parseDateFlag(opts.to, '--to') }),
              ...(opts.limit === undefined
                ? {}
                : { limit: parseIntInRange(opts.limit, '--limit', 1, RUN_LIST_MAX_LIMIT) }),
              ...(opts.cursor === undefined ? {} : { cursor: opts.cursor }),
            },
            opts.all === true,
          ),
      ),
    );

  program
    .command('upload')
    .description(
      'upload a file for a capability (checked against describe before any byte is sent); prints the upload id',
    )
    .argument('<slug>')
    .argument('<file>')
    .option('--content-type <type>', 'MIME type (default: from the file extension)')
    .option('--filename <name>', 'the name the platform sees (default: the file name)')
    .addOption(jsonOption())
    .action(
      act(async (slug: string, file: string, opts: { contentType?: string; filename?: string }) =>
        commands.upload(ctx(true), slug, file, {
          ...(opts.contentType === undefined ? {} : { contentType: opts.contentType }),
          ...(opts.filename === undefined ? {} : { filename: opts.filename }),
        }),
      ),
    );

  program
    .command('artifacts')
    .description("a run's artifacts; --download saves them, each verified against the manifest's SHA-256")
    .argument('<run_id>')
    .option('--download <dir>', 'save every artifact into this directory')
    .addOption(jsonOption())
    .action(
      act(async (runId: string, opts: { download?: string }) =>
        commands.artifacts(ctx(true), runId, opts.download),
      ),
    );

  program
    .command('whoami')
    .description('the client, key id and scopes of your API key')
    .addOption(jsonOption())
    .action(act(async () => commands.whoami(ctx(true))));

  program
    .command('balance')
    .description('balance, held, spent this month, spend cap, remaining')
    .addOption(jsonOption())
    .action(act(async () => commands.balance(ctx(true))));

  program
    .command('usage')
    .description('charged runs and totals for a period (default: this UTC month)')
    .option('--from <date>', 'start, inclusive (2026-11-01 or an RFC 3339 time)')
    .option('--to <date>', 'end, exclusive')
    .option('--slug <slug>', 'only this capability')
    .option('--limit <n>', 'at most n lines (1-1000, default 100)')
    .addOption(jsonOption())
    .action(
      act(async (opts: { from?: string; to?: string; slug?: string; limit?: string }) =>
        commands.usage(ctx(true), {
          ...(opts.from === undefined ? {} : { from: parseDateFlag(opts.from, '--from') }),
          ...(opts.to === undefined ? {} : { to: parseDateFlag(opts.to, '--to') }),
          ...(opts.slug === undefined ? {} : { slug: opts.slug }),
          ...(opts.limit === undefined ? {} : { limit: parseIntInRange(opts.limit, '--limit', 1, 1000) }),
        }),
      ),
    );

  program
    .command('login')
    .description(
      'save an API key to the config file (mode 600): typed at a terminal without echo, else the first line of stdin',
    )
    .option('--base-url <url>', 'also save the platform URL')
    .addOption(jsonOption())
    .action(
      act(async (opts: { baseUrl?: string }) => {
        const apiKey = (await (deps.readStdin ?? readAllStdin)()).trim().split('\n')[0]?.trim() ?? '';
        if (apiKey === '')
          throw new UsageError('svc login: no API key on stdin (e.g. `svc login < key.txt`)');
        const path = configPath(deps.env);
        const contents = {
          ...(opts.baseUrl === undefined ? {} : { base_url: checkBaseUrl(opts.baseUrl, '--base-url') }),
          api_key: apiKey,
        };
        writeConfigFile(path, contents);
        out.result({ ok: true, config_path: path }, () => `saved the key to ${path} (mode 600)`);
        return EXIT.ok;
      }),
    );

  const contract = program.command('contract').description('the §9 contract tools');
  contract
    .command('check')
    .description('compare two contract manifests: `pnpm contract check`, same flags and exit codes')
    .helpOption(false)
    .allowUnknownOption()
    .allowExcessArguments();

  return program;
}

/**
 * The key for `svc login`: typed at a terminal, without echo (secret-input.ts); else the first line
 * of stdin (`svc login < key.txt`, a pipe from a password manager).
 */
async function readAllStdin(): Promise<string> {
  if (process.stdin.isTTY) {
    return readSecretLine(
      { input: process.stdin, output: process.stderr },
      'API key (not shown while you type or paste; end with Enter): ',
    );
  }
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
