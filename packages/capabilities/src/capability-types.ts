import type {
  CapabilityJobResult,
  ExecutionMode,
  FileFacts,
  FileRequirements,
  JobOptions,
  Pricing,
  ResolvedFile,
} from '@svc/contracts';
import type { z } from 'zod';
import type { Category } from './categories';
import type { CapabilityEnv, CapabilityHandlerModule, CapabilitySettings } from './kit/handler';
import type { FileProbe, LimitBreach } from './kit/probe';
import type { Workload } from './workload';

/* What defineCapability returns (define.ts): a declaration as the platform reads it. */

/**
 * What pricing may read of an input's files (decisions U6): id, size and the facts the uploads
 * service recorded, as the capability's probe reads them (`Facts`).
 */
export type PricedFile<Facts = FileFacts> = Pick<ResolvedFile, 'upload_id' | 'size_bytes'> & {
  readonly facts: Facts;
};

/** Statuses of a capability a worker runs (spec §2.1): the type requires a handler. */
export type RunnableStatus = 'supported' | 'requires_worker';
/** Statuses of a capability no worker runs: plan_only (the orchestrator plans) or describe_only. */
export type NeverRunStatus = 'plan_only' | 'describe_only';

export interface ExecutionDeclaration<Status> {
  readonly machine_run_status: Status;
  /** Runtime family of the workers that run it ("node", "browser"). */
  readonly runtime: string;
  readonly mode: ExecutionMode;
}

/** The job of a runnable capability, in the shape of the job catalog (`JobDefinition` of the contracts). */
export interface CapabilityJob<Payload extends z.ZodObject> {
  readonly payload: Payload;
  readonly result: typeof CapabilityJobResult;
  readonly options: JobOptions;
  /** One line for the docs' job table (docs/architecture.md). */
  readonly description: string;
  /** The payload holds the client's input: the finished job keeps none (issue 13). */
  readonly dropDataWhenFinished: true;
}

/** The manifest fields a declaration states and the platform reads back unchanged. */
export interface ManifestFields<Slug extends string, Input extends z.ZodObject> {
  readonly slug: Slug;
  /** Manifest: name and slug weigh most in the full-text index, then category and tags, then description. */
  readonly name: string;
  readonly description: string;
  readonly category: Category;
  readonly tags: readonly string[];
  /** Manifest version: a breaking change of input or result bumps the major. */
  readonly version: string;
  /** Schema of the quote/run `input`: validated by the orchestrator, published as `input_schema`. */
  readonly input: Input;
}

/** A declared capability as the platform reads it: the declaration's manifest fields and what they derive. */
interface CapabilityCommon<Slug extends string, Input extends z.ZodObject>
  extends ManifestFields<Slug, Input> {
  /** Published pricing (without the units function). */
  readonly pricing: Pricing;
  readonly fileRequirements: FileRequirements;
  readonly execution: ExecutionDeclaration<RunnableStatus | NeverRunStatus>;
  /** Units of a raw input (parsed here; throws like `input.parse`); absent unless priced per_unit. */
  readonly units?: (input: unknown, files: readonly PricedFile[]) => number;
  /** Upload ids a raw input names, in input order; absent when it takes no files. */
  readonly uploadIds?: (input: unknown) => string[];
  /** How its files are inspected when their bytes arrive (the uploads service runs it); absent: no facts. */
  readonly probe?: FileProbe;
  /**
   * The first published content limit (`requirements`) a file's facts break for a raw input (parsed
   * here; throws like `input.parse`), or undefined; absent without a probe.
   */
  readonly fileLimits?: (
    input: unknown,
    facts: unknown,
    requirements: FileRequirements,
  ) => LimitBreach | undefined;
}

export interface RunnableCapability<
  Slug extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  Result extends z.ZodType = z.ZodType,
  Payload extends z.ZodObject = z.ZodObject,
  Env extends CapabilityEnv = CapabilityEnv,
  HandlerIn = unknown,
> extends CapabilityCommon<Slug, Input> {
  readonly runnable: true;
  readonly execution: ExecutionDeclaration<RunnableStatus>;
  /** How its runs use a worker (workload.ts): the default of its slots per worker process. */
  readonly workload: Workload;
  readonly result: Result;
  readonly env?: Env;
  readonly job: CapabilityJob<Payload>;
  readonly handler: () => Promise<CapabilityHandlerModule<HandlerIn, CapabilitySettings<Env>>>;
}

export interface NeverRunCapability<
  Slug extends string = string,
  Input extends z.ZodObject = z.ZodObject,
  Result extends z.ZodType = z.ZodType,
> extends CapabilityCommon<Slug, Input> {
  readonly runnable: false;
  readonly execution: ExecutionDeclaration<NeverRunStatus>;
  readonly result?: Result;
  /** plan_only: the plan of a run for a raw input (parsed here; throws like `input.parse`). */
  readonly plan?: (runId: string, input: unknown) => Record<string, unknown>;
}

/** Any declared capability (the element type of CAPABILITIES). */
export type Capability = RunnableCapability | NeverRunCapability;
