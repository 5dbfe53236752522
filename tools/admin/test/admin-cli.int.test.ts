import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiKeyStore, parseApiKey, provisionClient } from '@svc/auth';
import { ledgerTotals, spendPeriod } from '@svc/db';
import { type CommandResult, createTestDatabase, runCommand, type TestDatabase } from '@svc/testkit';
import { adminInProcess } from './admin-in-process';

// Runs the CLI against a fresh, migrated database (dropped afterwards). A child process starts
// node + tsx (a second or more of CPU, more via pnpm), so most commands run in this process
// (adminInProcess: what the bin runs, with the env and cwd a child would get); the bin itself runs
// as a child for what only a process shows: `pnpm admin …` as the README has it (the first
// create-key), and the exit codes and output of --help (0), a usage error (2) and a failure (1).
const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

type CliResult = CommandResult;

interface RunOptions {
  /** Run as an operator does, `pnpm admin …` from the workspace root (slower: pnpm starts first). */
  viaPnpm?: boolean;
  /** `node tools/admin/bin/admin.cjs …`: a child process of its own. */
  viaBin?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

function runAdmin(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = options.env ?? { ...process.env, DATABASE_URL: database.url };
  const cwd = options.cwd ?? ROOT;
  if (options.viaPnpm) return runCommand('pnpm', ['admin', ...args], { cwd, env });
  if (options.viaBin) return runCommand(process.execPath, [BIN, ...args], { cwd, env });
  return adminInProcess(args, { cwd, env });
}

/** stdout must be exactly one line holding one JSON value. */
function onlyJsonLine(result: CliResult): unknown {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(result.stdout).toMatch(/^[^\n]+\n$/);
  return JSON.parse(result.stdout);
}

const NO_DATABASE = 'set DATABASE_URL or start the platform with `pnpm start` first';

function envWithoutDatabaseUrl(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.DATABASE_URL;
  delete env.DATA_DIR;
  return env;
}

let database: TestDatabase;
let store: ApiKeyStore;

beforeAll(async () => {
  database = await createTestDatabase('admin_cli');
  store = new ApiKeyStore(database.prisma);
});

afterAll(() => database?.drop());

describe('pnpm admin', () => {
  let first: { client_id: string; api_key: string };

  it('create-key prints exactly one JSON line and writes key, ledger credit and spend cap', async () => {
    const result = await runAdmin(
      [
        'create-key',
        '--client',
        'acme',
        '--scopes',
        'capabilities:read,capabilities:run',
        '--label',
        'ci',
        '--balance-usd',
        '12.5',
        '--spend-cap-usd',
        '100',
      ],
      { viaPnpm: true },
    );
    const output = onlyJsonLine(result);
    expect(Object.keys(output as object).sort()).toEqual(['api_key', 'client_id']);
    first = output as typeof first;

    expect(await store.verify(first.api_key)).toEqual({
      clientId: first.client_id,
      clientName: 'acme',
      keyId: parseApiKey(first.api_key)?.keyId,
      scopes: ['capabilities:read', 'capabilities:run'],
      rateLimits: {},
    });
    const ledger = await database.prisma.ledgerEntry.findMany({ where: { clientId: first.client_id } });
    expect(ledger).toEqual([
      expect.objectContaining({
        kind: 'credit',
        amountMicros: 12_500_000n,
        note: 'opening balance (admin CLI)',
        runId: null,
      }),
    ]);
    const account = await database.prisma.walletAccount.findUniqueOrThrow({
      where: { clientId: first.client_id },
    });
    expect(account.spendCapMicros).toBe(100_000_000n);
  });

  it('a second key for the same client reuses it and may change the cap', async () => {
    const output = onlyJsonLine(
      await runAdmin([
        'create-key',
        '--client',
        'acme',
        '--scopes',
        'billing:read',
        '--spend-cap-usd',
        '5.000001',
      ]),
    ) as { client_id: string; api_key: string };
    expect(output.client_id).toBe(first.client_id);
    expect(output.api_key).not.toBe(first.api_key);
    const account = await database.prisma.walletAccount.findUniqueOrThrow({
      where: { clientId: first.client_id },
    });
    expect(account.spendCapMicros).toBe(5_000_001n);
    expect(await database.prisma.ledgerEntry.count({ where: { clientId: first.client_id } })).toBe(1);
  });

  it('list-keys prints the keys as a JSON array, without secrets', async () => {
    const result = await runAdmin(['list-keys', '--client', 'acme']);
    const rows = onlyJsonLine(result) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(2);
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual(
      [
        'client_id',
        'client_name',
        'created_at',
        'expires_at',
        'key_id',
        'label',
        'last_used_at',
        'revoked_at',
        'scopes',
      ].sort(),
    );
    expect(rows[0]).toMatchObject({
      client_id: first.client_id,
      client_name: 'acme',
      key_id: parseApiKey(first.api_key)?.keyId,
      scopes: ['capabilities:read', 'capabilities:run'],
      label: 'ci',
      revoked_at: null,
    });
    expect(result.stdout).not.toContain(parseApiKey(first.api_key)?.secret);
    expect(onlyJsonLine(await runAdmin(['list-keys', '--client', 'nobody']))).toEqual([]);
  });

  it('revoke-key takes a whole key; the key stops verifying; a second revoke reports false', async () => {
    const keyId = parseApiKey(first.api_key)?.keyId;
    expect(onlyJsonLine(await runAdmin(['revoke-key', first.api_key]))).toEqual({
      key_id: keyId,
      revoked: true,
    });
    expect(await store.verify(first.api_key)).toBeNull();
    expect(onlyJsonLine(await runAdmin(['revoke-key', keyId ?? '']))).toEqual({
      key_id: keyId,
      revoked: false,
    });
  });

  it('an unknown scope exits 2, names it, lists the valid ones, and writes nothing', async () => {
    const result = await runAdmin(['create-key', '--client', 'typo', '--scopes', 'capabilities:read,root'], {
      viaBin: true,
    });
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('root');
    expect(result.stderr).toContain('vault:fill');
    expect(await database.prisma.client.count({ where: { name: 'typo' } })).toBe(0);
  });

  it('a bad amount exits 2 without writing', async () => {
    const result = await runAdmin([
      'create-key',
      '--client',
      'typo',
      '--scopes',
      'billing:read',
      '--balance-usd',
      '1.5e3',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--balance-usd');
    expect(await database.prisma.client.count({ where: { name: 'typo' } })).toBe(0);
  });

  it('--help prints usage on stdout and exits 0', async () => {
    const result = await runAdmin(['--help'], { viaBin: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create-key --client NAME --scopes');
  });

  describe('money commands', () => {
    let clientId: string;

    beforeAll(async () => {
      // 10 USD opening credit, like create-key --balance-usd 10.
      ({ clientId } = await provisionClient(store, {
        clientName: 'money',
        scopes: ['billing:read'],
        balanceMicros: 10_000_000n,
      }));
    });

    const balanceNow = async () =>
      (await ledgerTotals(database.prisma, clientId, spendPeriod(new Date()))).balanceMicros;
    const adjustments = () =>
      database.prisma.ledgerEntry.findMany({
        where: { clientId, kind: 'adjustment' },
        orderBy: { createdAt: 'asc' },
      });

    it('set-balance writes one adjustment of the difference and prints one JSON line', async () => {
      const output = onlyJsonLine(await runAdmin(['set-balance', '--client', 'money', '--usd', '4.25']));
      expect(output).toEqual({ client_id: clientId, balance_usd: '4.25', adjustment_usd: '-5.75' });
      expect(await adjustments()).toEqual([
        expect.objectContaining({
          amountMicros: -5_750_000n,
          note: 'balance set to 4.25 USD (admin CLI)',
          runId: null,
        }),
      ]);
      expect(await balanceNow()).toBe(4_250_000n);
    });

    it('set-balance to the current balance writes nothing', async () => {
      expect(onlyJsonLine(await runAdmin(['set-balance', '--client', 'money', '--usd', '4.25']))).toEqual({
        client_id: clientId,
        balance_usd: '4.25',
        adjustment_usd: '0.00',
      });
      expect(await adjustments()).toHaveLength(1);
    });

    it('set-balance counts captures, leaves holds alone, and takes a note', async () => {
      const captured = '6f1c1f2e-3d4b-4a5c-8d9e-0f1a2b3c4d5e';
      await database.prisma.ledgerEntry.createMany({
        data: [
          { clientId, kind: 'hold', amountMicros: -250_000n, runId: captured },
          { clientId, kind: 'capture', amountMicros: -250_000n, runId: captured },
          {
            clientId,
            kind: 'hold',
            amountMicros: -1_000_000n,
            runId: '0b9d7c1e-8a53-4c4e-9d0a-2f6f1f4f6a11',
          },
        ],
      });
      const output = onlyJsonLine(
        await runAdmin(['set-balance', '--client', 'money', '--usd', '10', '--note', 'top-up, ticket 42']),
      );
      // 4.25 − 0.25 captured = 4.00 before; the open hold of 1.00 does not count.
      expect(output).toEqual({ client_id: clientId, balance_usd: '10.00', adjustment_usd: '6.00' });
      expect((await adjustments()).at(-1)).toMatchObject({
        amountMicros: 6_000_000n,
        note: 'top-up, ticket 42',
      });
      expect(await balanceNow()).toBe(10_000_000n);
    });

    it('set-spend-cap sets and removes the cap', async () => {
      expect(onlyJsonLine(await runAdmin(['set-spend-cap', '--client', 'money', '--usd', '0.02']))).toEqual({
        client_id: clientId,
        spend_cap_usd: '0.02',
      });
      const capped = await database.prisma.walletAccount.findUniqueOrThrow({ where: { clientId } });
      expect(capped.spendCapMicros).toBe(20_000n);
      expect(onlyJsonLine(await runAdmin(['set-spend-cap', '--client', 'money', '--none']))).toEqual({
        client_id: clientId,
        spend_cap_usd: null,
      });
      const uncapped = await database.prisma.walletAccount.findUniqueOrThrow({ where: { clientId } });
      expect(uncapped.spendCapMicros).toBeNull();
    });

    it('an unknown client exits 1 naming it, and writes nothing', async () => {
      const before = await database.prisma.ledgerEntry.count();
      const accounts = await database.prisma.walletAccount.count();
      // The first through the bin: exit code 1 and that one stderr line are the process's.
      for (const [args, options] of [
        [['set-balance', '--client', 'nobody', '--usd', '5'], { viaBin: true }],
        [['set-spend-cap', '--client', 'nobody', '--usd', '5'], {}],
      ] satisfies Array<[string[], RunOptions]>) {
        const result = await runAdmin(args, options);
        expect(result).toMatchObject({ code: 1, stdout: '' });
        expect(result.stderr).toBe('admin: unknown client: nobody\n');
      }
      expect(await database.prisma.ledgerEntry.count()).toBe(before);
      expect(await database.prisma.walletAccount.count()).toBe(accounts);
    });

    it('a usage mistake exits 2 with the command’s usage', async () => {
      const result = await runAdmin(['set-spend-cap', '--client', 'money']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('give exactly one of --usd N or --none');
      expect(result.stderr).toContain('set-spend-cap --client NAME (--usd N | --none)');
    });
  });

  describe('without DATABASE_URL', () => {
    let workspace: string;

    beforeEach(() => {
      // A throwaway workspace root: pnpm-workspace.yaml marks it, .data/runtime.json is the launcher's record.
      workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-'));
      fs.writeFileSync(path.join(workspace, 'pnpm-workspace.yaml'), 'packages: []\n');
    });

    afterEach(() => {
      fs.rmSync(workspace, { recursive: true, force: true });
    });

    /** The launcher's record, in `<workspace>/<dataDir>/runtime.json` (dataDir may be absolute). */
    function writeRuntimeInfo(pid: number, dataDir = '.data'): void {
      const dir = path.resolve(workspace, dataDir);
      fs.mkdirSync(dir, { recursive: true });
      const info = {
        databaseUrl: database.url,
        redisUrl: 'redis://127.0.0.1:6379',
        gatewayUrl: 'http://127.0.0.1:8080',
        pid,
        startedAt: new Date().toISOString(),
        busPrefix: 'svc',
        busEncryptionKeyFile: path.join(dir, 'bus-encryption-key'),
        storageDir: path.join(dir, 'objects'),
      };
      fs.writeFileSync(path.join(dir, 'runtime.json'), JSON.stringify(info));
    }

    it('uses the database recorded by a running `pnpm start`', async () => {
      writeRuntimeInfo(process.pid);
      const result = await runAdmin(['list-keys', '--client', 'acme'], {
        cwd: workspace,
        env: envWithoutDatabaseUrl(),
      });
      expect(onlyJsonLine(result)).toHaveLength(2);
    });

    it('looks in DATA_DIR, relative to the workspace root even when run from a subdirectory', async () => {
      writeRuntimeInfo(process.pid, 'var/stack');
      const subdirectory = path.join(workspace, 'tools');
      fs.mkdirSync(subdirectory);
      const env = { ...envWithoutDatabaseUrl(), DATA_DIR: 'var/stack' };
      expect(
        onlyJsonLine(await runAdmin(['list-keys', '--client', 'acme'], { cwd: subdirectory, env })),
      ).toHaveLength(2);
      // The default .data holds nothing here: without DATA_DIR the record is not found.
      const result = await runAdmin(['list-keys'], { cwd: subdirectory, env: envWithoutDatabaseUrl() });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(NO_DATABASE);
    });

    it('exits 1 with advice when nothing is recorded', async () => {
      const result = await runAdmin(['list-keys'], { cwd: workspace, env: envWithoutDatabaseUrl() });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(NO_DATABASE);
    });

    it('exits 1 when the recorded launcher is gone', async () => {
      writeRuntimeInfo(4_194_305); // above Linux's largest pid_max: never a live process
      const result = await runAdmin(['list-keys'], { cwd: workspace, env: envWithoutDatabaseUrl() });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(
        `(${path.join('.data', 'runtime.json')} names launcher pid 4194305, not running)`,
      );
      // A DATA_DIR outside the workspace is named by its absolute path.
      const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-cli-data-'));
      try {
        writeRuntimeInfo(4_194_305, outside);
        const env = { ...envWithoutDatabaseUrl(), DATA_DIR: outside };
        const elsewhere = await runAdmin(['list-keys'], { cwd: workspace, env });
        expect(elsewhere.code).toBe(1);
        expect(elsewhere.stderr).toContain(`(${path.join(outside, 'runtime.json')} names launcher pid`);
      } finally {
        fs.rmSync(outside, { recursive: true, force: true });
      }
    });

    it('exits 1 naming DATABASE_URL when it is not a postgres URL', async () => {
      const result = await runAdmin(['list-keys'], {
        env: { ...envWithoutDatabaseUrl(), DATABASE_URL: 'mysql://x' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('DATABASE_URL');
    });
  });
});
