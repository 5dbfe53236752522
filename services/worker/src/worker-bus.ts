import type { Bus } from '@svc/bus';
import type { MessageCatalog } from '@svc/capabilities';

/**
 * The worker's bus, typed by the whole message catalog: the platform's jobs, RPC and events, and
 * the `capability.<slug>` job of every capability (derived from the declarations).
 */
export type WorkerBus = Bus<MessageCatalog>;
