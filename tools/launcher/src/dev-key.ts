import path from 'node:path';
import { ApiKeyStore, allScopes, provisionClient } from '@svc/auth';
import { MICROS_PER_USD } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { z } from 'zod';
import { readSecretJson, writeSecretJson } from './secret-json';

// The development API key of `pnpm start`: client "dev" with every scope, an opening balance and no
// spend cap, made through the same provisioning code as `pnpm admin create-key`. Saved (mode 0600,
// it is a secret) so a second start reuses it; printed only when it is made.

export const DEV_CLIENT_NAME = 'dev';
/** Opening balance of a new dev client: 100 USD, in micro-USD. */
export const DEV_BALANCE_MICROS = 100n * MICROS_PER_USD;
export const DEV_KEY_NOTE = 'opening balance (pnpm start dev key)';

const DevKeyFile = z.object({ client_id: z.string(), api_key: z.string() });
export type DevKey = z.infer<typeof DevKeyFile>;

/** `dev-key.json` in the launcher's data directory (DATA_DIR). */
export function devKeyPath(dataDir: string): string {
  return path.join(dataDir, 'dev-key.json');
}

/** The saved key, or null when there is none (or it is unreadable: a new one replaces it). */
export function readDevKey(file: string): DevKey | null {
  return readSecretJson(file, DevKeyFile);
}

/** Atomic write, mode 0600 from the start: the key is never world-readable. */
export function writeDevKey(file: string, key: DevKey): void {
  writeSecretJson(file, key);
}

export type DevKeyResult =
  /** The saved key works against this database. */
  | { status: 'existing'; key: DevKey }
  /** A new key was made (none saved, or the saved one is unknown to this database). */
  | { status: 'created'; key: DevKey; replacedStale: boolean; credited: boolean };

/**
 * Makes sure `<DATA_DIR>/dev-key.json` holds a key valid in this database. A saved key that does not
 * verify (the database was reset, or DATABASE_URL points elsewhere) is replaced. The opening credit
 * goes only to a client that did not exist yet, so replacing a key never mints money twice.
 */
export async function ensureDevKey(prisma: PrismaClient, file: string): Promise<DevKeyResult> {
  const store = new ApiKeyStore(prisma);
  const saved = readDevKey(file);
  if (saved !== null && (await store.verify(saved.api_key)) !== null) {
    return { status: 'existing', key: saved };
  }
  const clientExists = (await prisma.client.findUnique({ where: { name: DEV_CLIENT_NAME } })) !== null;
  const created = await provisionClient(store, {
    clientName: DEV_CLIENT_NAME,
    scopes: allScopes(),
    label: 'pnpm start',
    balanceMicros: clientExists ? null : DEV_BALANCE_MICROS,
    balanceNote: DEV_KEY_NOTE,
  });
  const key = { client_id: created.clientId, api_key: created.apiKey };
  writeDevKey(file, key);
  return { status: 'created', key, replacedStale: saved !== null, credited: !clientExists };
}
