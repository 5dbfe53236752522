import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Bus, createBus, type ServiceClient, serviceClient } from '@svc/bus';
import { type PlatformCatalog, platformCatalog } from '@svc/contracts';
import { freePort } from '@svc/devstack';
import { createLogger } from '@svc/log';
import {
  type CommandResult,
  createTestDatabase,
  deleteKeysWithPrefix,
  pollUntil,
  runCommand,
  type TestDatabase,
  testBusEncryptionKeys,
  testBusEncryptionKeyText,
  testRedisUrl,
} from '@svc/testkit';
import { createKeyringFile, fieldSubject, loadKeyringFile, openValue } from '@svc/vault-crypto';
import { adminInProcess } from './admin-in-process';

// `pnpm admin vault …` against a real vault process (services/vault/src/main.ts) on a fresh
// database, a bus under a fresh prefix and a keyring file in a temp directory: add a key version,
// rotate, and every value still opens under the new version. The commands run in this process
// (adminInProcess: what the bin runs, with the same env and cwd), sparing a node + tsx start each;
// a usage mistake runs the bin as a child, for its exit code and output as a process.
const ROOT = path.resolve(__dirname, '../../..');
const BIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

let database: TestDatabase;
let dir: string;
let keyringFile: string;
let prefix: string;
let bus: Bus<PlatformCatalog>;
let vault: ServiceClient<PlatformCatalog, 'vault'>;
let child: ChildProcess | undefined;
let childOutput = '';

/** This process's env without anything that would point the CLI at another stack. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of [
    'DATABASE_URL',
    'DATA_DIR',
    'REDIS_URL',
    'BUS_PREFIX',
    'BUS_ENCRYPTION_KEY',
    'VAULT_KEYRING',
    'VAULT_KEYRING_FILE',
  ]) {
    delete env[name];
  }
  return env;
}

function stackEnv(): NodeJS.ProcessEnv {
  return {
    ...cleanEnv(),
    REDIS_URL: testRedisUrl(),
    BUS_PREFIX: prefix,
    BUS_ENCRYPTION_KEY: testBusEncryptionKeyText(),
    VAULT_KEYRING_FILE: keyringFile,
  };
}

function runAdmin(args: string[], env: NodeJS.ProcessEnv = stackEnv()): Promise<CommandResult> {
  return adminInProcess(args, { cwd: ROOT, env });
}

/** `node tools/admin/bin/admin.cjs …`: a child process of its own. */
function runAdminBin(args: string[], env: NodeJS.ProcessEnv = stackEnv()): Promise<CommandResult> {
  return runCommand(process.execPath, [BIN, ...args], { cwd: ROOT, env });
}

function onlyJsonLine(result: CommandResult): unknown {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: expect.any(String) });
  expect(result.stdout).toMatch(/^[^\n]+\n$/);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  database = await createTestDatabase('admin_vault');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-vault-'));
  keyringFile = path.join(dir, 'vault-keyring.json');
  createKeyringFile(keyringFile);
  prefix = `adminvault${randomUUID().slice(0, 8)}`;
  bus = createBus({
    catalog: platformCatalog,
    redisUrl: testRedisUrl(),
    prefix,
    logger: createLogger({ service: 'test-admin-vault', level: 'silent' }),
    encryptionKeys: testBusEncryptionKeys(),
  });
  vault = serviceClient(bus, 'vault', { timeoutMs: 10_000 });
  child = spawn(process.execPath, ['--import', 'tsx', 'services/vault/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...stackEnv(),
      DATABASE_URL: database.url,
      STORAGE_DIR: path.join(dir, 'objects'),
      HEALTH_PORT: String(await freePort()),
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (chunk: Buffer) => {
    childOutput += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  await pollUntil(
    async () => {
      try {
        await vault.ping({});
        return true;
      } catch {
        return false;
      }
    },
    { what: 'the vault to answer', timeoutMs: 45_000, intervalMs: 200, detail: () => childOutput },
  );
}, 90_000);

afterAll(async () => {
  child?.kill('SIGTERM');
  await bus?.close();
  await deleteKeysWithPrefix(testRedisUrl(), prefix);
  await database?.drop();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('pnpm admin vault', () => {
  const values = new Map<string, { clientId: string; name: string }>();

  test('add-key, rotate --wait: every data key moves to the new version and every value opens', async () => {
    for (let c = 0; c < 2; c += 1) {
      const clientId = randomUUID();
      for (let i = 0; i < 15; i += 1) {
        const value = `secret note ${c}/${i}`;
        await vault.saveField({
          client_id: clientId,
          request_id: 'admin-test',
          field: { name: `note_${i}`, type: 'free_text', value },
        });
        values.set(value, { clientId, name: `note_${i}` });
      }
    }

    const before = onlyJsonLine(await runAdmin(['vault', 'rotation'])) as Record<string, unknown>;
    expect(before).toMatchObject({
      current_version: 1,
      keyring_versions: [1],
      data_keys_by_version: { '1': 30 },
    });

    const added = await runAdmin(['vault', 'add-key']);
    expect(onlyJsonLine(added)).toEqual({ keyring_file: keyringFile, version: 2, current_version: 2 });
    const document = JSON.parse(fs.readFileSync(keyringFile, 'utf8')) as {
      current: number;
      keys: Array<{ key: string }>;
    };
    expect(document.current).toBe(2);
    expect(fs.statSync(keyringFile).mode & 0o077).toBe(0);
    for (const { key } of document.keys) expect(added.stdout + added.stderr).not.toContain(key);

    // Version 1 still wraps every data key: it cannot be retired yet.
    const early = await runAdmin(['vault', 'retire-key', '1']);
    expect(early.code).toBe(1);
    // (Refused as still current when the vault has not re-read the file yet.)
    expect(early.stderr).toMatch(/still wrapped by version 1|version 1 is the vault's current version/);

    // Right after add-key the vault may still be on version 1: rotate waits for its reload.
    const rotated = onlyJsonLine(await runAdmin(['vault', 'rotate', '--wait'])) as Record<string, unknown>;
    expect(rotated).toMatchObject({
      current_version: 2,
      keyring_versions: [1, 2],
      data_keys_by_version: { '2': 30 },
      rewrap: { target_version: 2, state: 'completed', rewrapped: 30, remaining: 0 },
    });

    const keys = loadKeyringFile(keyringFile).keyring;
    const rows = await database.prisma.vaultField.findMany();
    expect(rows).toHaveLength(30);
    for (const [value, { clientId, name }] of values) {
      const row = rows.find((r) => r.clientId === clientId && r.name === name);
      expect(row?.keyVersion).toBe(2);
      if (!row) continue;
      const opened = await openValue({
        kek: keys,
        clientId,
        subject: fieldSubject(name),
        ciphertext: row.ciphertext,
        wrappedKey: row.wrappedKey,
        keyVersion: row.keyVersion,
      });
      expect(opened).toBe(value);
    }

    // Idempotent: a second rotate to the same version starts nothing new.
    const again = onlyJsonLine(await runAdmin(['vault', 'rotate'])) as { rewrap: { started_at: string } };
    expect(again.rewrap.started_at).toBe((rotated as { rewrap: { started_at: string } }).rewrap.started_at);
    expect(childOutput).not.toContain('secret note');
  }, 90_000);

  test('add-key --keep-current adds a version without making it current', async () => {
    const output = onlyJsonLine(await runAdmin(['vault', 'add-key', '--keep-current']));
    expect(output).toEqual({ keyring_file: keyringFile, version: 3, current_version: 2 });
  });

  test('retire-key removes a version no data key uses, never the current one', async () => {
    const retired = onlyJsonLine(await runAdmin(['vault', 'retire-key', '1']));
    expect(retired).toEqual({ keyring_file: keyringFile, retired: 1, versions: [2, 3] });
    const current = await runAdmin(['vault', 'retire-key', '2']);
    expect(current.code).toBe(1);
    expect(current.stderr).toContain("the vault's current version");
    expect(loadKeyringFile(keyringFile).keyring.versions).toEqual([2, 3]);
  });

  test('mistakes: usage (2), an inline keyring or no bus (1)', async () => {
    const unknown = await runAdminBin(['vault', 'spin']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown vault command "spin"');
    const help = await runAdmin(['vault', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('pnpm admin vault add-key');

    const inline = await runAdmin(['vault', 'add-key'], {
      ...cleanEnv(),
      VAULT_KEYRING: '{"current":1,"keys":[]}',
    });
    expect(inline.code).toBe(1);
    expect(inline.stderr).toContain('VAULT_KEYRING holds the keyring inline');

    const noBus = await runAdmin(['vault', 'rotation'], {
      ...cleanEnv(),
      DATA_DIR: path.join(dir, 'nothing'),
    });
    expect(noBus.code).toBe(1);
    expect(noBus.stderr).toContain('no bus to reach the vault');
  });
});
