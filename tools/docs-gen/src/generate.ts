import { eventChannel, jobQueueName, rpcQueueName } from '@svc/bus';
import * as capabilities from '@svc/capabilities';
import { baseEnv, busEncryptionEnv, databaseEnv, redisEnv, serviceEnv } from '@svc/config';
import * as contracts from '@svc/contracts';
import * as errors from '@svc/errors';
import { storageEnv } from '@svc/storage';
import { capabilitiesRegion } from './capability-tables';
import { envRegion, type SharedFragment, undescribedVariables } from './env-tables';
import { errorsRegion } from './error-tables';
import { eventsRegion, jobsRegion, rpcRegion, undescribedMessages } from './message-tables';
import { replaceRegions } from './regions';
import { serviceEnvs } from './services';
import { schemaNames } from './zod-text';

/** The document the generator writes, relative to the workspace root. */
export const ARCHITECTURE_DOC = 'docs/architecture.md';

/** The variables spelled once in a fragment and read by several services (one table for them all). */
const SHARED_FRAGMENTS: readonly SharedFragment[] = [
  { label: '`baseEnv`', keys: Object.keys(baseEnv) },
  { label: '`redisEnv`', keys: Object.keys(redisEnv) },
  { label: '`busEncryptionEnv`', keys: Object.keys(busEncryptionEnv) },
  { label: '`databaseEnv`', keys: Object.keys(databaseEnv) },
  // The keys only: each service passes its own default HEALTH_PORT.
  { label: '`serviceEnv`', keys: Object.keys(serviceEnv(1)) },
  { label: '@svc/storage `storageEnv`', keys: Object.keys(storageEnv) },
];

const naming = { jobQueue: jobQueueName, rpcQueue: rpcQueueName, eventChannel };

/** Which capability declares a worker variable (`<slug>/env.ts`), shown beside its description. */
function capabilityEnvOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const capability of capabilities.CAPABILITIES) {
    if (!capability.runnable) continue;
    for (const key of Object.keys(capability.env ?? {})) owners.set(key, capability.slug);
  }
  return owners;
}

/** The content of every generated region of docs/architecture.md, by region name. */
export function generatedRegions(): Record<string, string> {
  // Every schema the contracts or the capabilities export, by its export name.
  const names = schemaNames([contracts, capabilities]);
  return {
    capabilities: capabilitiesRegion(capabilities.CAPABILITIES, jobQueueName),
    jobs: jobsRegion(capabilities.messageCatalog.jobs, names, naming),
    rpc: rpcRegion(capabilities.messageCatalog.rpc, names, naming),
    events: eventsRegion(capabilities.messageCatalog.events, names, naming),
    errors: errorsRegion(errors, contracts.RUN_ERROR_CODES),
    env: envRegion(serviceEnvs(), SHARED_FRAGMENTS, capabilityEnvOwners()),
  };
}

/** `document` with its generated regions rewritten from the code. */
export function renderArchitectureDoc(document: string): string {
  return replaceRegions(document, generatedRegions());
}

/** What the code leaves undescribed (env variables, catalog entries): the doc would show "—". */
export function undescribed(): string[] {
  return [...undescribedVariables(serviceEnvs()), ...undescribedMessages(capabilities.messageCatalog)];
}
