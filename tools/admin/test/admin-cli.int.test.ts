import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiKeyStore, parseApiKey } from '@svc/auth';
import { createTestDatabase, type TestDatabase } from '@svc/testkit';

// Runs the real CLI as a child process against a fresh, migrated database (dropped afterwards).
// Each run starts node + tsx (a few seconds, more via pnpm).
const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface RunOptions {
  /** Run as an operator does, `pnpm admin …` from the workspace root (slower: pnpm starts first). */
  viaPnpm?: boolean;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
}

function runAdmin(args: string[], options: RunOptions = {}): Promise<CliResult> {
  const env = options.env ?? { ...process.env, DATABASE_URL: database.url };
  const [command, argv] = options.viaPnpm ? ['pnpm', ['admin', ...args]] : [process.execPath, [BIN, ...args]];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: options.cwd ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
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
    const result = await runAdmin(['create-key', '--client', 'typo', '--scopes', 'capabilities:read,root']);
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
    const result = await runAdmin(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create-key --client NAME --scopes');
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
