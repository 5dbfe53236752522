import { type Bus, createBus } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { createLogger } from '@svc/log';
import type { BusSettings } from './platform-bus';

/** The bus of the CLI's calls and events: the platform's catalog, nothing queued or consumed. */
export type PlatformBus = Bus<typeof platformCatalog>;

/**
 * Runs `use` on a bus opened with the located platform's settings (resolveBusSettings) and closes
 * it afterwards, whatever `use` did. The bus logs nothing: stdout carries the CLI's one JSON
 * value, and each command reports its own outcome. A close that fails is ignored: the command's
 * answer is already decided.
 */
export async function withPlatformBus<T>(
  settings: BusSettings,
  use: (bus: PlatformBus) => Promise<T>,
): Promise<T> {
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: settings.redisUrl,
    prefix: settings.prefix,
    encryptionKeys: settings.encryptionKeys,
    logger: createLogger({ service: 'admin', level: 'silent' }),
    closeTimeoutMs: 1_000, // ms: a one-shot command does not wait long on Redis to let go
  });
  try {
    return await use(bus);
  } finally {
    await bus.close().catch(() => undefined);
  }
}
