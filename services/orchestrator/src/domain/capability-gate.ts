import {
  type Capability,
  capabilityDefinition,
  capabilityJobName,
  type PricedFile,
  unitsOf,
} from '@svc/capabilities';
import {
  actionableRunStatus,
  blockedModeMessage,
  type CapabilityRecord,
  type ComputedPrice,
  computePrice,
  type EffectiveRunStatus,
  effectiveRunStatus,
} from '@svc/contracts';
import { ConflictError, formatZodError, ValidationError } from '@svc/errors';
import { hasPlanBuilder } from './plan-builders';

/** An execution mode that may be quoted and run (spec §2.1). */
export type RunnableStatus = Exclude<EffectiveRunStatus, 'describe_only'>;

/** The execution mode the orchestrator acts on (contracts `actionableRunStatus`: the stricter wins). */
export function executionStatusOf(record: Pick<CapabilityRecord, 'execution'>): EffectiveRunStatus {
  return actionableRunStatus(record.execution);
}

/** The 409 message of a capability that cannot be quoted or run (docs/decisions.md Q6). */
export const blockedMessage = blockedModeMessage;

/** The capability's mode if it may be quoted and run; 409 otherwise (describe_only, missing, unknown). */
export function assertRunnable(slug: string, record: Pick<CapabilityRecord, 'execution'>): RunnableStatus {
  const status = executionStatusOf(record);
  if (status === 'describe_only') {
    const raw = record.execution.machine_run_status;
    // A known raw value other than describe_only that still ended here: the registry said describe_only.
    throw new ConflictError(
      blockedMessage(slug, effectiveRunStatus(raw) === 'describe_only' ? raw : 'describe_only'),
    );
  }
  return status;
}

/** The 409 of a capability this deployment has no code for (docs/decisions.md Q6). */
export function noHandler(slug: string): ConflictError {
  return new ConflictError(`capability ${slug} has no handler in this deployment`);
}

/** The capability's definition (input schema, priced units); 409 when this build has none. */
export function definitionOf(slug: string): Capability {
  const definition = capabilityDefinition(slug);
  if (definition === undefined) throw noHandler(slug);
  return definition;
}

/**
 * 409 unless this deployment can execute `slug` in `status`: plan_only needs a plan builder, the
 * worker modes a capability queue.
 */
export function assertHandled(slug: string, status: RunnableStatus): void {
  const handled = status === 'plan_only' ? hasPlanBuilder(slug) : capabilityJobName(slug) !== undefined;
  if (!handled) throw noHandler(slug);
}

/** `input` parsed with the capability's schema (defaults applied); 422 `input.<field>: …` otherwise. */
function parseInput(definition: Capability, input: unknown): Record<string, unknown> {
  const parsed = definition.input.safeParse(input);
  if (!parsed.success) throw new ValidationError(formatZodError(parsed.error, 'input'));
  return parsed.data;
}

/**
 * The price of a parsed input and its resolved files (empty for capabilities without files) under
 * the published pricing model (contracts computePrice): per page, per image, per megabyte need the
 * files' facts.
 */
export function priceOf(
  record: Pick<CapabilityRecord, 'pricing'>,
  definition: Capability,
  input: Record<string, unknown>,
  files: readonly PricedFile[] = [],
): ComputedPrice {
  return computePrice(record.pricing, unitsOf(definition, input, files));
}

/**
 * A capability looked up for a quote or a run, with the request's input parsed. Not priced yet: a
 * price may need the input's files (resolveInputFiles), which are looked up after the mode checks.
 */
export interface ResolvedCapability {
  record: CapabilityRecord;
  definition: Capability;
  /** executionStatusOf(record): may still be describe_only (assertRunnable decides when to refuse). */
  status: EffectiveRunStatus;
  input: Record<string, unknown>;
}

/**
 * describe (404 unknown slug) → definition (409 no handler) → input (422). An input that does not
 * parse for a capability that cannot run anyway answers the 409 of its mode: that is the problem
 * the client must solve first. Pricing comes after (priceOf), once the input's files are resolved.
 */
export async function resolveCapability(
  describe: (slug: string) => Promise<CapabilityRecord>,
  slug: string,
  rawInput: unknown,
): Promise<ResolvedCapability> {
  const record = await describe(slug);
  const definition = definitionOf(slug);
  let input: Record<string, unknown>;
  try {
    input = parseInput(definition, rawInput);
  } catch (err) {
    assertRunnable(slug, record);
    throw err;
  }
  return { record, definition, status: executionStatusOf(record), input };
}
