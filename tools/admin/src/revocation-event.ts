import { publishEvent } from '@svc/bus';
import type { BusSettings } from './platform-bus';
import { withPlatformBus } from './platform-bus-session';

// ms: the whole publish (connect + PUBLISH + close). The key is already revoked in the database; a
// gateway that does not hear the event refuses the key within its API_KEY_CACHE_TTL_MS anyway.
const PUBLISH_BUDGET_MS = 5_000;

/**
 * Publishes `apikey.revoked` (after the database update, so a gateway that reloads on it reads the
 * revocation). Resolves with how many subscribers Redis delivered it to (0: nobody listens on that
 * BUS_PREFIX), or undefined (never a throw) when it could not be sent.
 */
export async function publishKeyRevoked(settings: BusSettings, keyId: string): Promise<number | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), PUBLISH_BUDGET_MS);
  });
  try {
    // The CLI reports the outcome on stderr itself: a failed publish is undefined, never a throw.
    return await withPlatformBus(settings, (bus) =>
      Promise.race([
        publishEvent(bus, 'apikey.revoked', { key_id: keyId }).then(
          (receivers) => receivers,
          () => undefined,
        ),
        budget,
      ]),
    );
  } finally {
    clearTimeout(timer);
  }
}
