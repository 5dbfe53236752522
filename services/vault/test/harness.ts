import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Bus, createBus, type RpcServer, type ServiceClient, serveRpc, serviceClient } from '@svc/bus';
import { type PlatformCatalog, platformCatalog } from '@svc/contracts';
import { type MemoryLogger, memoryLogger } from '@svc/log';
import { createObjectStore, type ObjectStore } from '@svc/storage';
import {
  createTestDatabase,
  deleteKeysWithPrefix,
  pollUntil,
  type TestDatabase,
  testBusEncryptionKeys,
  testBusEncryptionKeyText,
  testRedisUrl,
} from '@svc/testkit';
import { addKeyVersion, createKeyringFile, type KeyringHandle, watchKeyringFile } from '@svc/vault-crypto';
import {
  type UploadsPort,
  VAULT_SETTING_DEFAULTS,
  type VaultDeps,
  type VaultSettings,
} from '../src/domain/deps';
import { rewrapEnqueuer } from '../src/handlers/rewrap-job';
import { vaultHandlers } from '../src/handlers/rpc';

/** ms between two looks at the harness's keyring file (the service polls every 5 s). */
export const KEYRING_POLL_MS = 50;

export const DEFAULT_SETTINGS: VaultSettings = VAULT_SETTING_DEFAULTS;

/** An uploads service that knows no upload (tests of extractions/documents pass their own). */
export const NO_UPLOADS: UploadsPort = {
  resolveFiles: async () => {
    throw new Error('uploads.resolveFiles: not expected in this test');
  },
  registerArtifacts: async () => {
    throw new Error('uploads.registerArtifacts: not expected in this test');
  },
  listArtifacts: async () => ({ artifacts: [] }),
};

export interface HarnessOptions {
  settings?: Partial<VaultSettings>;
  uploads?: UploadsPort;
  /** Default: the wall clock. */
  now?: () => Date;
}

/**
 * The vault service in this process, on real infrastructure: a fresh migrated database, a bus on
 * the test Redis under a fresh prefix (memory logger: tests read every line), a keyring file in a
 * temp directory (version 1, re-read every 50 ms), an fs object store there too, and the real
 * `rpc.vault` responder. The rewrap worker is not started: rotation tests start it themselves.
 */
export interface VaultHarness {
  db: TestDatabase;
  bus: Bus<PlatformCatalog>;
  prefix: string;
  log: MemoryLogger;
  dir: string;
  keyringFile: string;
  keyring: KeyringHandle;
  store: ObjectStore;
  deps: VaultDeps;
  vault: ServiceClient<PlatformCatalog, 'vault'>;
  /** Adds a key version to the keyring file (current unless told) and waits until the keys follow. */
  addKey(options?: { makeCurrent?: boolean }): Promise<number>;
  /** What a child process needs to join this harness's database, bus and keyring. */
  childEnv(): NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startVaultHarness(options: HarnessOptions = {}): Promise<VaultHarness> {
  const db = await createTestDatabase('vault');
  const log = memoryLogger('vault', 'debug');
  const prefix = `vault${randomUUID().slice(0, 8)}`;
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: testRedisUrl(),
    prefix,
    logger: log.logger,
    encryptionKeys: testBusEncryptionKeys(),
  });
  const dir = await mkdtemp(path.join(tmpdir(), 'vault-'));
  const keyringFile = path.join(dir, 'vault-keyring.json');
  createKeyringFile(keyringFile);
  const keyring = watchKeyringFile(keyringFile, { intervalMs: KEYRING_POLL_MS });
  const store = createObjectStore({ driver: 'fs', root: path.join(dir, 'objects') });
  const deps: VaultDeps = {
    prisma: db.prisma,
    keys: keyring.keys,
    store,
    uploads: options.uploads ?? NO_UPLOADS,
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    logger: log.logger,
    now: options.now ?? (() => new Date()),
  };
  const rpc: RpcServer = serveRpc(bus, 'vault', vaultHandlers(deps, rewrapEnqueuer(bus)));
  await rpc.waitUntilReady();
  const vault = serviceClient(bus, 'vault', { timeoutMs: 20_000 });
  return {
    db,
    bus,
    prefix,
    log,
    dir,
    keyringFile,
    keyring,
    store,
    deps,
    vault,
    async addKey(addOptions = {}) {
      const added = addKeyVersion(keyringFile, addOptions);
      await pollUntil(() => keyring.keys.versions.includes(added.version), { timeoutMs: 5_000 });
      return added.version;
    },
    childEnv() {
      return {
        DATABASE_URL: db.url,
        REDIS_URL: testRedisUrl(),
        BUS_PREFIX: prefix,
        BUS_ENCRYPTION_KEY: testBusEncryptionKeyText(),
        VAULT_KEYRING_FILE: keyringFile,
      };
    },
    async close() {
      keyring.close();
      await rpc.close();
      await bus.close();
      await deleteKeysWithPrefix(testRedisUrl(), prefix);
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export function newClientId(): string {
  return randomUUID();
}
