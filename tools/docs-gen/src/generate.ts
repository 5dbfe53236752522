import { eventChannel, jobQueueName, rpcQueueName } from '@svc/bus';
import * as capabilities from '@svc/capabilities';
import { baseEnv, busEncryptionEnv, databaseEnv, redisEnv, serviceEnv } from '@svc/config';
import * as contracts from '@svc/contracts';
import {
  findWorkspaceRoot,
  PLATFORM_SERVICES,
  SERVICE_NAMES,
  schemaOwner,
  serviceEntry,
} from '@svc/devstack';
import * as errors from '@svc/errors';
import { storageEnv } from '@svc/storage';
import { rpcRequestListKey } from '../../../packages/bus/src/names';
import { capabilitiesRegion } from './capability-tables';
import { schemasRegion, tablesRegion } from './db-tables';
import { envRegion, type SharedFragment, undescribedVariables } from './env-tables';
import { errorsRegion } from './error-tables';
import { eventsRegion, jobsRegion, rpcRegion, undescribedMessages } from './message-tables';
import { readPrismaDatabase } from './prisma-schema';
import { replaceRegions } from './regions';
import { servicesRegion } from './service-tables';
import { serviceEnvs } from './services';
import { transportsRegion } from './transports';
import { schemaNames } from './zod-text';

/** The documents the generator writes, relative to the workspace root. */
export const ARCHITECTURE_DOC = 'docs/architecture.md';
export const DB_DOC = 'docs/db.md';
export const README_DOC = 'README.md';

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

/** The one service list as the services table shows it (start-up order). */
function servicesTable(): string {
  const rpcServices = Object.keys(capabilities.messageCatalog.rpc);
  return servicesRegion(
    SERVICE_NAMES.map((name) => ({
      name,
      entry: serviceEntry(name),
      service: PLATFORM_SERVICES[name],
      answersRpc: rpcServices.includes(name),
    })),
    (service) => rpcRequestListKey('<prefix>', service),
  );
}

function database() {
  return readPrismaDatabase(findWorkspaceRoot(__dirname));
}

/** The content of every generated region of docs/architecture.md, by region name. */
export function generatedRegions(): Record<string, string> {
  // Every schema the contracts or the capabilities export, by its export name.
  const names = schemaNames([contracts, capabilities]);
  return {
    services: servicesTable(),
    transports: transportsRegion(),
    tables: tablesRegion(database(), SERVICE_NAMES, schemaOwner),
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

/** A document with generated regions, and what fills them. */
export interface GeneratedDoc {
  /** Relative to the workspace root. */
  file: string;
  regions(): Record<string, string>;
}

/** Every document `pnpm docs:generate` writes and the docs test compares. */
export const GENERATED_DOCS: readonly GeneratedDoc[] = [
  { file: ARCHITECTURE_DOC, regions: generatedRegions },
  { file: DB_DOC, regions: () => ({ schemas: schemasRegion(database(), SERVICE_NAMES, schemaOwner) }) },
  { file: README_DOC, regions: () => ({ services: servicesTable() }) },
];

/** `document` (the text of `doc.file`) with its generated regions rewritten from the code. */
export function renderDoc(doc: GeneratedDoc, document: string): string {
  return replaceRegions(document, doc.regions());
}

/** What the code leaves undescribed (env variables, catalog entries): the doc would show "—". */
export function undescribed(): string[] {
  return [...undescribedVariables(serviceEnvs()), ...undescribedMessages(capabilities.messageCatalog)];
}
