import {
  CapabilityJobResult,
  capabilityJobOptions,
  type FileRequirements,
  type JobOptions,
  NO_FILES,
  type Pricing,
  ResolvedFile,
  Uuid,
} from '@svc/contracts';
import { z } from 'zod';
import type {
  Capability,
  ExecutionDeclaration,
  ManifestFields,
  NeverRunCapability,
  PricedFile,
  RunnableCapability,
  RunnableStatus,
} from './capability-types';
import type { CapabilityEnv, CapabilityHandlerModule, CapabilitySettings } from './kit/handler';
import type { FileProbe, LimitBreach, OptionalFacts } from './kit/probe';
import type { Workload } from './workload';

/** Input fields that can name uploads: an id (`upload_id`) or a list of ids (`upload_ids`). */
export type UploadField<Input> = {
  [K in keyof Input]-?: Input[K] extends string | readonly string[] ? K : never;
}[keyof Input] &
  string;

/**
 * The files a capability takes (spec §4 rule 1: an input names its uploads by id): the input field
 * naming them, and what the manifest publishes as `file_requirements` (checked when an upload
 * session opens and at quote time).
 */
export interface FileDeclaration<Input> {
  /** The input field holding the upload id(s), in input order. */
  readonly field: UploadField<Input>;
  readonly min_files: number;
  readonly max_files: number;
  /** bytes per file. */
  readonly max_size_bytes: number;
  readonly content_types: readonly string[];
  /**
   * Content limits the run enforces, published so they are checked at quote time (issue 13)
   * against the facts of the probe below.
   */
  readonly max_pages?: number;
  readonly max_pixels?: number;
  readonly max_columns?: number;
  readonly max_record_characters?: number;
  /**
   * How the files are inspected when their bytes arrive (kit/probe.ts): the facts the uploads
   * service records, which `pricing.units` reads and the probe's `checkLimits` checks against the
   * limits above. Without one a file has no facts.
   */
  readonly probe?: FileProbe<OptionalFacts, Input>;
}

/** Facts of no declared shape: a capability without a probe gets `{}` (nothing it could price on). */
type UndeclaredFacts = Readonly<Record<string, unknown>>;

/** The facts a declaration's files carry for pricing: its probe's, or undeclared ones. */
export type FactsOf<Files> = Files extends { readonly probe: FileProbe<infer Facts, never> }
  ? z.output<Facts>
  : UndeclaredFacts;

/** Units of the per_unit model that a parsed input and its resolved files (with their probe's facts) measure. */
export type UnitsOf<Input, Facts = UndeclaredFacts> = (
  input: Input,
  files: readonly PricedFile<Facts>[],
) => number;

/** Published pricing; a per_unit price also says how an input counts its units (required by type). */
export type PricingDeclaration<Input, Facts = UndeclaredFacts> =
  | (Exclude<Pricing, { model: 'per_unit' }> & { readonly units?: never })
  | (Extract<Pricing, { model: 'per_unit' }> & { readonly units: UnitsOf<Input, Facts> });

/** What every declaration states, whatever its execution status. */
interface DeclarationBase<Slug extends string, Input extends z.ZodObject, Facts = UndeclaredFacts>
  extends ManifestFields<Slug, Input> {
  readonly pricing: PricingDeclaration<z.output<Input>, Facts>;
}

/** Retries of a capability's job when they differ from the default (3 attempts, backoff 1 s × 2). */
export type JobDeclaration<Payload> = Pick<JobOptions, 'attempts' | 'backoff'> & {
  /** Own payload schema (crt); default `{ run_id, input }`, plus `files` for a capability with files. */
  readonly payload?: Payload;
};

/**
 * A capability a worker runs. `handler` loads its run code lazily (`() => import('./handler')`), so
 * the registry, orchestrator and gateway never load its libraries (sharp, chromium).
 */
export interface RunnableDeclaration<
  Slug extends string,
  Input extends z.ZodObject,
  Result extends z.ZodObject,
  Payload extends z.ZodObject,
  Env extends CapabilityEnv,
  Files extends FileDeclaration<z.output<Input>> | undefined,
> extends DeclarationBase<Slug, Input, FactsOf<Files>> {
  readonly files?: Files;
  readonly execution: ExecutionDeclaration<RunnableStatus>;
  /** How its runs use a worker: decides how many one worker process runs at once (workload.ts). */
  readonly workload: Workload;
  /**
   * Schema a completed run's result must match: the handler's result type is checked against its
   * input type at compile time, and the orchestrator parses every report with it at run time.
   */
  readonly result: Result;
  /** Environment variables its handler reads (`<slug>/env.ts`), merged into the worker's env. */
  readonly env?: Env;
  readonly job?: JobDeclaration<Payload>;
  readonly handler: () => Promise<
    CapabilityHandlerModule<HandlerInput<Input, Payload>, CapabilitySettings<Env>, z.input<Result>>
  >;
}

/** What a capability no worker runs may not have: handler, job, env (the type refuses them). */
interface NeverRuns {
  readonly env?: never;
  readonly job?: never;
  readonly handler?: never;
}

/**
 * plan_only (spec §2.1: "the result is a client plan, no server processing"): `plan` builds the
 * result when the run is created (orchestrator); pure, no I/O.
 */
export interface PlanOnlyDeclaration<
  Slug extends string,
  Input extends z.ZodObject,
  Result extends z.ZodObject,
> extends DeclarationBase<Slug, Input>,
    NeverRuns {
  readonly files?: FileDeclaration<z.output<Input>>;
  readonly execution: ExecutionDeclaration<'plan_only'>;
  readonly result: Result;
  /** The plan of a run (its id names the follow-up requests) for a parsed input. */
  readonly plan: (runId: string, input: z.output<Input>) => z.input<Result>;
}

/** describe_only: listed and describable, never quoted or run, so no result and no plan either. */
export interface DescribeOnlyDeclaration<Slug extends string, Input extends z.ZodObject>
  extends DeclarationBase<Slug, Input>,
    NeverRuns {
  readonly files?: FileDeclaration<z.output<Input>>;
  readonly execution: ExecutionDeclaration<'describe_only'>;
  readonly result?: never;
  readonly plan?: never;
}

/**
 * What a runnable capability's handler receives as `input`: the parsed input, or, for a capability
 * with its own job payload, that payload without `run_id` (crt: `{ apex, include_first_seen, limit }`).
 */
export type HandlerInput<Input extends z.ZodObject, Payload extends z.ZodObject> = [Payload] extends [never]
  ? z.output<Input>
  : Omit<z.output<Payload>, 'run_id'>;

/** Payload of the default job: the run and its input, plus the resolved files when it takes files. */
export type DefaultJobPayload<Input extends z.ZodObject, HasFiles extends boolean> = HasFiles extends true
  ? z.ZodObject<{ run_id: typeof Uuid; input: Input; files: z.ZodArray<typeof ResolvedFile> }>
  : z.ZodObject<{ run_id: typeof Uuid; input: Input }>;

type JobPayloadOf<Input extends z.ZodObject, Payload extends z.ZodObject, Files> = [Payload] extends [never]
  ? DefaultJobPayload<Input, [Files] extends [undefined] ? false : true>
  : Payload;

/**
 * Declares a capability: its slug, schemas, pricing, files, execution and (when a worker runs it)
 * its job and lazily loaded handler. Everything else — the registry's manifest, the job catalog
 * entry `capability.<slug>`, the slug → job map, the worker's handler map — is derived from the
 * list in catalog.ts. The execution status decides the shape: `supported`/`requires_worker` need a
 * `handler` and `result`; `plan_only` needs `plan` and `result`; neither plan_only nor
 * describe_only takes a handler, job or env.
 */
export function defineCapability<
  const Slug extends string,
  Input extends z.ZodObject,
  Result extends z.ZodObject,
  Env extends CapabilityEnv = Record<never, never>,
  Payload extends z.ZodObject = never,
  Files extends FileDeclaration<z.output<Input>> | undefined = undefined,
>(
  declaration: RunnableDeclaration<Slug, Input, Result, Payload, Env, Files>,
): RunnableCapability<
  Slug,
  Input,
  Result,
  JobPayloadOf<Input, Payload, Files>,
  Env,
  HandlerInput<Input, Payload>
>;
export function defineCapability<
  const Slug extends string,
  Input extends z.ZodObject,
  Result extends z.ZodObject,
>(declaration: PlanOnlyDeclaration<Slug, Input, Result>): NeverRunCapability<Slug, Input, Result>;
export function defineCapability<const Slug extends string, Input extends z.ZodObject>(
  declaration: DescribeOnlyDeclaration<Slug, Input>,
): NeverRunCapability<Slug, Input, z.ZodNever>;
export function defineCapability(
  declaration:
    | RunnableDeclaration<
        string,
        z.ZodObject,
        z.ZodObject,
        z.ZodObject,
        CapabilityEnv,
        FileDeclaration<Record<string, unknown>> | undefined
      >
    | PlanOnlyDeclaration<string, z.ZodObject, z.ZodObject>
    | DescribeOnlyDeclaration<string, z.ZodObject>,
): Capability {
  const { pricing, files, input } = declaration;
  const probe = files?.probe;
  const parse = (raw: unknown) => input.parse(raw);
  const { units, ...published } = pricing;
  const common = {
    slug: declaration.slug,
    name: declaration.name,
    description: declaration.description,
    category: declaration.category,
    tags: declaration.tags,
    version: declaration.version,
    input,
    pricing: published,
    fileRequirements: fileRequirements(files),
    ...(units === undefined
      ? {}
      : {
          units: (raw: unknown, priced: readonly PricedFile[]) =>
            units(
              parse(raw),
              priced.map((file) => ({ ...file, facts: factsOf(probe, file.facts) ?? {} })),
            ),
        }),
    ...(files === undefined ? {} : { uploadIds: (raw: unknown) => uploadIds(parse(raw), files.field) }),
    ...(probe === undefined ? {} : { probe, fileLimits: fileLimits(probe, parse) }),
  };
  if (!isRunnableDeclaration(declaration)) {
    const { plan } = declaration;
    return {
      ...common,
      runnable: false,
      execution: declaration.execution,
      result: declaration.result,
      ...(plan === undefined ? {} : { plan: (runId: string, raw: unknown) => plan(runId, parse(raw)) }),
    };
  }
  const { job = {}, handler, env } = declaration;
  const { payload, ...retries } = job;
  return {
    ...common,
    runnable: true,
    execution: declaration.execution,
    workload: declaration.workload,
    result: declaration.result,
    ...(env === undefined ? {} : { env }),
    job: {
      payload: payload ?? defaultJobPayload(input, files),
      result: CapabilityJobResult,
      options: { ...capabilityJobOptions, ...retries },
      description: `One ${declaration.slug} run on a \`${declaration.execution.runtime}\` worker; job id \`run-<run_id>-<n>\` (one per hand-over).`,
      dropDataWhenFinished: true,
    },
    handler,
  };
}

function isRunnableDeclaration<D extends { execution: { machine_run_status: string } }>(
  declaration: D,
): declaration is Extract<D, { execution: ExecutionDeclaration<RunnableStatus> }> {
  const status = declaration.execution.machine_run_status;
  return status === 'supported' || status === 'requires_worker';
}

/** `{ run_id, input }`, plus `files` (as many as the capability takes) for one that takes files. */
function defaultJobPayload<Input>(
  input: z.ZodObject,
  files: FileDeclaration<Input> | undefined,
): z.ZodObject {
  return files === undefined
    ? z.object({ run_id: Uuid, input })
    : z.object({
        run_id: Uuid,
        input,
        files: z.array(ResolvedFile).min(files.min_files).max(files.max_files),
      });
}

/** The published `file_requirements` of a declaration's files (NO_FILES when it takes none). */
function fileRequirements<Input>(files: FileDeclaration<Input> | undefined): FileRequirements {
  if (files === undefined) return NO_FILES;
  const {
    field: _field,
    probe: _probe,
    min_files,
    max_files,
    max_size_bytes,
    content_types,
    ...contentLimits
  } = files;
  // The published key order (what the registry hashes): counts, size, types, then content limits.
  return {
    accepts_files: true,
    min_files,
    max_files,
    max_size_bytes,
    content_types: [...content_types],
    ...contentLimits,
  };
}

/** The upload ids in `field` of a parsed input, in input order. */
function uploadIds(input: Record<string, unknown>, field: string): string[] {
  const value = input[field];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((id): id is string => typeof id === 'string');
  return [];
}

/**
 * A file's facts as its probe records them, or undefined when they are not of that shape (an upload
 * older than the probe) or there is no probe; `{}` is always a valid value (every field is optional).
 */
function factsOf(probe: FileProbe | undefined, facts: unknown): Record<string, unknown> | undefined {
  const parsed = probe?.facts.safeParse(facts);
  return parsed?.success === true ? parsed.data : undefined;
}

/** The first published limit a file breaks, for a raw input (parsed here; throws like `input.parse`). */
function fileLimits(
  probe: FileProbe,
  parse: (raw: unknown) => Record<string, unknown>,
): (input: unknown, facts: unknown, requirements: FileRequirements) => LimitBreach | undefined {
  return (input, facts, requirements) => {
    const parsed = factsOf(probe, facts);
    return parsed === undefined ? undefined : probe.checkLimits?.(parsed, requirements, parse(input));
  };
}
