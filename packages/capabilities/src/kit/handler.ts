import type { ResolvedFile } from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { z } from 'zod';
import type { CapabilityOutcome } from './outcome';
import type { RunStorage } from './run-storage';

/**
 * The environment variables one capability reads, as zod fields (e.g. `{ CRT_SH_URL: urlVar(...) }`),
 * kept in `<slug>/env.ts` so the worker can read them without loading the handler. The worker's
 * env schema merges the fields of every capability (services/worker/src/env.ts): a variable keeps
 * its name, default and messages, and a new capability adds its own without a central list.
 */
export type CapabilityEnv = z.ZodRawShape;

/** The parsed values of a capability's env fields: what its handler factory receives as `settings`. */
export type CapabilitySettings<Env extends CapabilityEnv> = z.output<z.ZodObject<Env>>;

/** Settings of a capability that reads no environment variable. */
export type NoSettings = Readonly<Record<never, never>>;

/**
 * A small shared key/value cache with expiry (Redis in the worker: services/worker/src/adapters),
 * private to one capability: the worker stores `key` as `<BUS_PREFIX>:<slug>:cache:<key>`, so
 * replicas share entries and no capability reads another's. Faults (store unreachable) reject: the
 * caller decides whether a cache fault matters (crt's does not).
 */
export interface CachePort {
  /** The bytes stored under `key`, or undefined when there are none (never written, or expired). */
  get(key: string): Promise<Buffer | undefined>;
  /** Stores `value` under `key` for `ttlMs` ms, replacing what was there. */
  set(key: string, value: Buffer, ttlMs: number): Promise<void>;
}

/** What the worker hands every capability besides its settings: the outside systems it may use. */
export interface CapabilityPorts {
  cache: CachePort;
}

/** What a handler factory receives, once per worker process that serves the capability's runtime. */
export interface HandlerDeps<Settings> {
  /** The capability's own env fields, parsed (CapabilitySettings of its `<slug>/env.ts`). */
  settings: Settings;
  ports: CapabilityPorts;
  /** The worker's logger (each run gets a child of it in RunContext.logger). */
  logger: Logger;
}

/** One attempt of one run, as the worker hands it to the capability's handler. */
export interface RunContext<Input> {
  runId: string;
  /** The client's input, already validated against the capability's input schema by the job catalog. */
  input: Input;
  /** The run's input files as the orchestrator resolved them (empty for capabilities without files). */
  files: readonly ResolvedFile[];
  /**
   * Aborted when the run is cancelled (reason RunCancelledError) or the worker is closing; the
   * handler stops its work and rejects (the worker reports `cancelled`, or BullMQ redelivers).
   */
  signal: AbortSignal;
  /** The worker's logger with the job, run id and attempt bound. */
  logger: Logger;
  /** Object storage as this run may use it: its input files, and artifacts under its run id. */
  storage: RunStorage;
}

/**
 * A capability's run code in one worker process: `run` is one attempt (resolves with the outcome,
 * whose result is `Result`; throws on faults worth a retry and on abort). `close`, if given, releases what the handler holds
 * (html-to-pdf's chromium) at shutdown, after the job consumers drained and before the bus closes.
 *
 * `run` is a method (not a function property) on purpose: TypeScript compares method parameters
 * bivariantly, so the worker can hold every capability's handler as `CapabilityHandler<unknown>`.
 * That is sound because a capability's job payload schema is derived from the same declaration as
 * its handler's input type (@svc/capabilities catalog), and the bus validates each payload.
 */
export interface CapabilityHandler<Input, Result = Record<string, unknown>> {
  run(context: RunContext<Input>): Promise<CapabilityOutcome<Result>>;
  close?(): Promise<void>;
}

/**
 * What `<slug>/handler.ts` default-exports (made with `defineHandler`); the capability's declaration
 * loads it lazily (`handler: () => import('./handler')`) so only workers load its libraries.
 * `create` is a method for the reason given on CapabilityHandler.run.
 */
export interface CapabilityHandlerFactory<Input, Settings, Result = Record<string, unknown>> {
  create(deps: HandlerDeps<Settings>): CapabilityHandler<Input, Result>;
}

/** A capability handler factory as the worker holds it, whatever its input and settings. */
export type AnyCapabilityHandlerFactory = CapabilityHandlerFactory<
  unknown,
  Readonly<Record<string, unknown>>
>;

/** The module `<slug>/handler.ts` as `import('./handler')` answers it. */
export interface CapabilityHandlerModule<Input, Settings, Result = Record<string, unknown>> {
  default: CapabilityHandlerFactory<Input, Settings, Result>;
}

/**
 * Makes the default export of `<slug>/handler.ts`, typed by the capability's input, its result and
 * its settings: `export default defineHandler<PiiRedactInput, PiiRedactResult>(() => ({ run: async
 * ({ input }) => ... }))`, or with settings `defineHandler<CrtInput, CrtResult,
 * CapabilitySettings<typeof crtEnv>>(({ settings }) => ...)`. The declaration's `handler` must load
 * a factory of the capability's input and result schemas (define.ts), so a handler typed with
 * another result, or returning one, does not compile.
 */
export function defineHandler<Input, Result, Settings = NoSettings>(
  create: (deps: HandlerDeps<Settings>) => CapabilityHandler<Input, Result>,
): CapabilityHandlerFactory<Input, Settings, Result> {
  return { create };
}
