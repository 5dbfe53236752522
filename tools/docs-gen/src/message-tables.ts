import type { z } from 'zod';
import { code, groupedNumber, humanMs, table } from './markdown';
import { descriptionOf, payloadText, type SchemaNames, schemaText } from './zod-text';

/**
 * The tables of the message catalogs (@svc/contracts `messages/`, the capability jobs from
 * @svc/capabilities): what the code declares, nothing typed by hand. The catalogs are taken as
 * plain records so this module does not depend on their exact types.
 */

/** Queue options as a job definition declares them (BullMQ `JobsOptions` subset). */
interface JobOptionsLike {
  attempts?: number;
  backoff?: { type: string; delay?: number; jitter?: number };
  removeOnComplete?: boolean | number | { age?: number; count?: number };
  removeOnFail?: boolean | number | { age?: number; count?: number };
}

export interface JobEntry {
  payload: z.ZodType;
  options: JobOptionsLike;
  dropDataWhenFinished?: boolean;
}

export interface RpcEntry {
  request: z.ZodType;
  response: z.ZodType;
}

/** How the names of queues and channels are spelled (@svc/bus names.ts). */
export interface QueueNaming {
  jobQueue(job: string): string;
  rpcQueue(service: string): string;
  eventChannel(prefix: string, event: string): string;
}

function seconds(s: number): string {
  return humanMs(s * 1_000) ?? `${groupedNumber(s)} s`;
}

function backoffText(backoff: JobOptionsLike['backoff']): string {
  if (backoff === undefined) return '—';
  const delay = backoff.delay === undefined ? '' : ` from ${humanMs(backoff.delay) ?? `${backoff.delay} ms`}`;
  const jitter = backoff.jitter === undefined ? '' : `, jitter ${backoff.jitter}`;
  return `${backoff.type}${delay}${jitter}`;
}

function keepText(rule: JobOptionsLike['removeOnComplete']): string {
  if (rule === undefined || rule === false) return 'kept';
  if (rule === true) return 'removed at once';
  if (typeof rule === 'number') return `last ${groupedNumber(rule)}`;
  const parts = [
    rule.age === undefined ? undefined : seconds(rule.age),
    rule.count === undefined ? undefined : `${groupedNumber(rule.count)} jobs`,
  ].filter((part) => part !== undefined);
  return parts.length === 0 ? 'kept' : parts.join(' / ');
}

/** The `jobs` region: one row per job type, in catalog order. */
export function jobsRegion(
  jobs: Readonly<Record<string, JobEntry>>,
  names: SchemaNames,
  naming: QueueNaming,
): string {
  const rows = Object.entries(jobs).map(([name, job]) => [
    code(naming.jobQueue(name)),
    String(job.options.attempts ?? 1),
    backoffText(job.options.backoff),
    `completed: ${keepText(job.options.removeOnComplete)}; failed: ${keepText(job.options.removeOnFail)}` +
      (job.dropDataWhenFinished === true ? '; payload dropped when finished' : ''),
    payloadText(job.payload, names),
    descriptionOf(job) ?? '—',
  ]);
  return table(['queue', 'attempts', 'backoff', 'retention (age / count)', 'payload', 'what'], rows);
}

/** The `rpc` region: one row per method, service by service, in catalog order. */
export function rpcRegion(
  rpc: Readonly<Record<string, Readonly<Record<string, RpcEntry>>>>,
  names: SchemaNames,
  naming: QueueNaming,
): string {
  const rows = Object.entries(rpc).flatMap(([service, methods]) =>
    Object.entries(methods).map(([method, entry]) => [
      code(`${service}.${method}`),
      code(naming.rpcQueue(service)),
      schemaText(entry.request, names),
      schemaText(entry.response, names),
      descriptionOf(entry) ?? '—',
    ]),
  );
  return table(['method', 'queue', 'request', 'response', 'what'], rows);
}

/** The `events` region: one row per event, in catalog order. */
export function eventsRegion(
  events: Readonly<Record<string, z.ZodType>>,
  names: SchemaNames,
  naming: QueueNaming,
): string {
  const rows = Object.entries(events).map(([name, schema]) => [
    code(name),
    code(naming.eventChannel('<prefix>', name)),
    payloadText(schema, names),
    descriptionOf(schema) ?? '—',
  ]);
  return table(['event', 'channel', 'payload', 'what'], rows);
}

/** Catalog entries without a description, as `jobs: name` etc. (the test names them). */
export function undescribedMessages(catalog: {
  jobs: Readonly<Record<string, JobEntry>>;
  rpc: Readonly<Record<string, Readonly<Record<string, RpcEntry>>>>;
  events: Readonly<Record<string, z.ZodType>>;
}): string[] {
  return [
    ...Object.entries(catalog.jobs)
      .filter(([, job]) => descriptionOf(job) === undefined)
      .map(([name]) => `jobs: ${name}`),
    ...Object.entries(catalog.rpc).flatMap(([service, methods]) =>
      Object.entries(methods)
        .filter(([, entry]) => descriptionOf(entry) === undefined)
        .map(([method]) => `rpc: ${service}.${method}`),
    ),
    ...Object.entries(catalog.events)
      .filter(([, schema]) => descriptionOf(schema) === undefined)
      .map(([name]) => `events: ${name}`),
  ];
}
