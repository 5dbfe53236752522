import type { z } from 'zod';
import { CrtInput, CrtResult } from '../crt';
import { CrtBatchPlanInput, CrtBatchPlanResult } from './crt-batch-plan';
import { HtmlToPdfInput, HtmlToPdfResult } from './html-to-pdf';
import { PiiRedactInput, PiiRedactResult, piiRedactUnits } from './pii-redact';
import { WhoisInput } from './whois';

/**
 * What the code knows about a capability, shared by the registry (its manifest's input schema), the
 * orchestrator (input validation and priced units) and the workers (input and result types). What is
 * published about it (status, pricing, runtime) is the registry's record: the describe response is
 * the source of truth (spec §1.2).
 */
export interface CapabilityDefinition {
  readonly slug: string;
  /** Schema of the quote/run `input` (defaults applied by parsing). */
  readonly input: z.ZodObject;
  /** Schema a completed run's result must match; absent for capabilities that never run. */
  readonly result?: z.ZodType;
  /**
   * Units of the per_unit pricing model that an input measures (absent: not per_unit). Takes the raw
   * input and parses it itself, so callers need no cast; throws like `input.parse`.
   */
  readonly units?: (input: unknown) => number;
}

function define<I extends z.ZodObject>(definition: {
  slug: string;
  input: I;
  result?: z.ZodType;
  units?: (input: z.output<I>) => number;
}): CapabilityDefinition {
  const { units, ...rest } = definition;
  return units === undefined ? rest : { ...rest, units: (raw) => units(definition.input.parse(raw)) };
}

export const CAPABILITY_DEFINITIONS: Readonly<Record<string, CapabilityDefinition>> = {
  crt: define({ slug: 'crt', input: CrtInput, result: CrtResult }),
  'pii-redact': define({
    slug: 'pii-redact',
    input: PiiRedactInput,
    result: PiiRedactResult,
    units: piiRedactUnits,
  }),
  'crt-batch-plan': define({ slug: 'crt-batch-plan', input: CrtBatchPlanInput, result: CrtBatchPlanResult }),
  'html-to-pdf': define({ slug: 'html-to-pdf', input: HtmlToPdfInput, result: HtmlToPdfResult }),
  whois: define({ slug: 'whois', input: WhoisInput }),
};

/** The definition of `slug`, or undefined when this build has none (the capability cannot run here). */
export function capabilityDefinition(slug: string): CapabilityDefinition | undefined {
  return Object.hasOwn(CAPABILITY_DEFINITIONS, slug) ? CAPABILITY_DEFINITIONS[slug] : undefined;
}

/** Priced units of an input (0 when the definition measures none). */
export function unitsOf(definition: CapabilityDefinition, input: unknown): number {
  return definition.units === undefined ? 0 : definition.units(input);
}
