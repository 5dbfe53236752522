import { type Bus, publishEvent } from '@svc/bus';
import type { PlatformCatalog } from '@svc/contracts';
import type { PublishCatalogChanged } from '../domain/seed';

/** The seed's catalog.changed port on the bus (pub/sub: lossy, see eventCatalog). */
export function catalogChangedPublisher(bus: Bus<PlatformCatalog>): PublishCatalogChanged {
  return async (event) => {
    await publishEvent(bus, 'catalog.changed', event);
  };
}
