import type { z } from 'zod';
import { eventCatalog } from './events';
import { platformJobs } from './jobs';
import { rpcCatalog } from './rpc';

/**
 * The catalog without capability jobs: what a service that runs no capability job hands its bus
 * (wallet, uploads, vault, registry, gateway), and the type its handlers take a bus as
 * (`Bus<PlatformCatalog>`): a bus made with the whole catalog is one too. The whole catalog, with a
 * job `capability.<slug>` per capability a worker runs, is `messageCatalog` of @svc/capabilities
 * (derived from the capability declarations).
 */
export const platformCatalog = { rpc: rpcCatalog, jobs: platformJobs, events: eventCatalog } as const;
export type PlatformCatalog = typeof platformCatalog;

export type PlatformJobs = typeof platformJobs;
export type PlatformJobName = keyof PlatformJobs;
/** What an enqueuer passes for a platform job (schema input). */
export type PlatformJobPayloadInput<N extends PlatformJobName> = z.input<PlatformJobs[N]['payload']>;
/** What a platform job's handler receives (parsed). */
export type PlatformJobPayload<N extends PlatformJobName> = z.output<PlatformJobs[N]['payload']>;
