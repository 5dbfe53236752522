import { createBus, publishEvent } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { createLogger } from '@svc/log';
import type { BusSettings } from './platform-bus';

// ms: the whole publish (connect + PUBLISH + close). The key is already revoked in the database; a
// gateway that does not hear the event refuses the key within its API_KEY_CACHE_TTL_MS anyway.
const PUBLISH_BUDGET_MS = 5_000;

/**
 * Publishes `apikey.revoked` (after the database update, so a gateway that reloads on it reads the
 * revocation). Resolves with how many subscribers Redis delivered it to (0: nobody listens on that
 * BUS_PREFIX), or undefined (never a throw) when it could not be sent.
 */
export async function publishKeyRevoked(settings: BusSettings, keyId: string): Promise<number | undefined> {
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
  const budget = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PUBLISH_BUDGET_MS);
  });
  try {
    return await Promise.race([
      publishEvent(bus, 'apikey.revoked', { key_id: keyId }).then(
        (receivers) => receivers,
        () => undefined,
      ),
      budget,
    ]);
  } finally {
    clearTimeout(timer);
    await bus.close().catch(() => undefined);
  }
}
