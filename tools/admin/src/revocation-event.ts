import fs from 'node:fs';
import { createBus, publishEvent } from '@svc/bus';
import { busEncryptionEnv, dataDirEnv, type EnvSource, loadEnv, redisEnv } from '@svc/config';
import { platformCatalog } from '@svc/contracts';
import { busEncryptionKeyPath } from '@svc/devstack';
import { createLogger } from '@svc/log';
import { z } from 'zod';
import { type LocalStack, localStack } from './database-url';

// ms: the whole publish (connect + PUBLISH + close). The key is already revoked in the database; a
// gateway that does not hear the event refuses the key within its API_KEY_CACHE_TTL_MS anyway.
const PUBLISH_BUDGET_MS = 5_000;

export interface BusSettings {
  redisUrl: string;
  prefix: string;
  encryptionKeys: readonly Uint8Array[];
}

const explicitEnv = z.object({
  REDIS_URL: redisEnv.REDIS_URL.optional(),
  BUS_PREFIX: redisEnv.BUS_PREFIX,
  BUS_ENCRYPTION_KEY: z.string().optional(),
  DATABASE_URL: z.string().optional(),
  ...dataDirEnv,
});
const keyEnv = z.object(busEncryptionEnv);

/**
 * The bus the gateways listen on: REDIS_URL and BUS_ENCRYPTION_KEY when set (BUS_PREFIX default
 * `svc`, as every service reads them); without DATABASE_URL, the `pnpm start` stack's (its
 * runtime.json and <DATA_DIR>/bus-encryption-key), as the database is found. Undefined when neither
 * says: the revocation then reaches gateways through their age bound only.
 */
export function resolveBusSettings(env: EnvSource, cwd: string): BusSettings | undefined {
  const read = loadEnv(explicitEnv, env);
  if (read.REDIS_URL !== undefined && read.BUS_ENCRYPTION_KEY !== undefined) {
    const keys = loadEnv(keyEnv, { BUS_ENCRYPTION_KEY: read.BUS_ENCRYPTION_KEY }).BUS_ENCRYPTION_KEY;
    return { redisUrl: read.REDIS_URL, prefix: read.BUS_PREFIX, encryptionKeys: keys };
  }
  if (read.DATABASE_URL !== undefined) return undefined; // another deployment than the local stack's
  let stack: LocalStack;
  try {
    stack = localStack(read.DATA_DIR, cwd);
  } catch {
    return undefined;
  }
  const keyFile = busEncryptionKeyPath(stack.dataDir);
  if (!fs.existsSync(keyFile)) return undefined;
  const keyText = fs.readFileSync(keyFile, 'utf8').trim();
  const keys = loadEnv(keyEnv, { BUS_ENCRYPTION_KEY: keyText }).BUS_ENCRYPTION_KEY;
  return { redisUrl: stack.info.redisUrl, prefix: read.BUS_PREFIX, encryptionKeys: keys };
}

/**
 * Publishes `apikey.revoked` (after the database update, so a gateway that reloads on it reads the
 * revocation). True when Redis took it; false (never a throw) when it could not be sent.
 */
export async function publishKeyRevoked(settings: BusSettings, keyId: string): Promise<boolean> {
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: settings.redisUrl,
    prefix: settings.prefix,
    encryptionKeys: settings.encryptionKeys,
    // stdout carries the CLI's one JSON value; the CLI reports the outcome on stderr itself.
    logger: createLogger({ service: 'admin', level: 'silent' }),
    closeTimeoutMs: 1_000,
  });
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PUBLISH_BUDGET_MS);
  });
  try {
    return await Promise.race([
      publishEvent(bus, 'apikey.revoked', { key_id: keyId }).then(
        () => true,
        () => false,
      ),
      budget,
    ]);
  } finally {
    clearTimeout(timer);
    await bus.close().catch(() => undefined);
  }
}
