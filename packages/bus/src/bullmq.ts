import type * as BullMQ from 'bullmq';

// bullmq is loaded the first time this process uses a queue, not when @svc/bus is imported: the
// services that only answer RPC and publish events (the registry, the gateway, the dashboard, the
// uploads service) never load it, which saves each of their starts about 0.25 s of CPU on a 2-core
// machine (bullmq brings its Lua scripts, cron-parser, msgpackr, lodash and semver).

let loaded: typeof BullMQ | undefined;

/** The bullmq module, required on the first call. */
export function bullmq(): typeof BullMQ {
  // A plain require: an `import` would load it with the module; `import()` would make every caller async.
  loaded ??= require('bullmq') as typeof BullMQ;
  return loaded;
}
