import { z } from 'zod';
import { CAPABILITIES } from './catalog';
import { defineCapability } from './define';
import { defineHandler } from './kit/handler';
import { defineProbe, storedMeasure, streamMeasure } from './kit/probe';

/**
 * The declaration's shape is checked by the compiler (`pnpm typecheck` fails on each
 * `@ts-expect-error` below that stops being an error); the tests check what the calls return.
 */

const Input = z.object({ text: z.string(), upload_id: z.string().default('none') }).strict();
const Result = z.object({ length: z.number() });
const handlerModule = {
  default: defineHandler<z.output<typeof Input>, z.input<typeof Result>>(() => ({
    run: async () => ({ kind: 'completed', result: { length: 0 } }),
  })),
};
const base = {
  slug: 'example',
  name: 'Example',
  description: 'An example capability.',
  category: 'data',
  tags: ['example'],
  version: '1.0.0',
  input: Input,
  pricing: { model: 'free', currency: 'USD', description: 'Free.' },
} as const;
const running = { machine_run_status: 'supported', runtime: 'node', mode: 'async' } as const;

describe('defineCapability', () => {
  test('a runnable capability gets a job on queue capability.<slug> with the default payload', () => {
    const runnable = defineCapability({
      ...base,
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      workload: 'cpu',
      result: Result,
      handler: async () => handlerModule,
    });
    expect(runnable.runnable).toBe(true);
    expect(runnable.job.options).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 1_000 },
    });
    expect(runnable.job.dropDataWhenFinished).toBe(true);
    const payload = {
      run_id: '00000000-0000-4000-8000-000000000001',
      input: { text: 'a', upload_id: 'u-1' },
    };
    expect(runnable.job.payload.parse(payload)).toEqual(payload);
  });

  // Each refused declaration is built first and then passed whole, so the compiler reports the
  // call (the line under its @ts-expect-error), whichever overload it tried last.
  const supported = { ...base, execution: running, workload: 'cpu', result: Result } as const;
  const planOnly = {
    ...base,
    execution: { ...running, machine_run_status: 'plan_only' },
    result: Result,
  } as const;

  test('a runnable capability without a handler, or with a handler of another input, is refused', () => {
    // @ts-expect-error supported needs a handler
    defineCapability(supported);
    const otherInput = {
      default: defineHandler<{ html: string }, z.input<typeof Result>>(() => ({
        run: async () => ({ kind: 'completed', result: { length: 0 } }),
      })),
    };
    const wrongHandler = { ...supported, handler: async () => otherInput } as const;
    // @ts-expect-error the handler's input is not the capability's
    defineCapability(wrongHandler);
  });

  test("a handler whose result is not the capability's result schema does not compile", () => {
    // A handler typed with another result: the declaration refuses it.
    const otherResult = {
      default: defineHandler<z.output<typeof Input>, { size: number }>(() => ({
        run: async () => ({ kind: 'completed', result: { size: 0 } }),
      })),
    };
    const wrongResult = { ...supported, handler: async () => otherResult } as const;
    // @ts-expect-error the handler's result is not the capability's (Result is { length: number })
    defineCapability(wrongResult);
    // A handler typed with the capability's result that returns something else: refused where it returns.
    defineHandler<z.output<typeof Input>, z.input<typeof Result>>(() => ({
      // @ts-expect-error `length` must be a number
      run: async () => ({ kind: 'completed', result: { length: 'four' } }),
    }));
    // The same handler with a result of the right shape is accepted, failed outcomes included.
    const right = defineCapability({
      ...supported,
      handler: async () => ({
        default: defineHandler<z.output<typeof Input>, z.input<typeof Result>>(() => ({
          run: async ({ input }) =>
            input.text === ''
              ? { kind: 'failed', error: { code: 'invalid_input', message: 'empty text' } }
              : { kind: 'completed', result: { length: input.text.length } },
        })),
      }),
    });
    expect(right.runnable).toBe(true);
  });

  test('plan_only needs a plan and takes no handler; describe_only takes neither and has no result', () => {
    const planned = defineCapability({
      ...planOnly,
      plan: (_runId, input) => ({ length: input.text.length }),
    });
    expect(planned.plan?.('run-1', { text: 'abcd' })).toEqual({ length: 4 });
    expect('job' in planned).toBe(false);
    // @ts-expect-error plan_only without its plan
    defineCapability(planOnly);
    const planWithHandler = {
      ...planOnly,
      plan: () => ({ length: 0 }),
      handler: async () => handlerModule,
    } as const;
    // @ts-expect-error plan_only never runs on a worker: a handler has nowhere to go
    defineCapability(planWithHandler);

    const described = defineCapability({
      ...base,
      execution: { machine_run_status: 'describe_only', runtime: 'node', mode: 'sync' },
    });
    expect(described.runnable).toBe(false);
    expect(described.result).toBeUndefined();
    expect('job' in described).toBe(false);
    const describedWithResult = {
      ...base,
      execution: { ...running, machine_run_status: 'describe_only' },
      result: Result,
    } as const;
    // @ts-expect-error describe_only never has a result
    defineCapability(describedWithResult);
  });

  test('per_unit pricing needs a units function, and units/files read the parsed input', () => {
    const unpriced = {
      ...supported,
      handler: async () => handlerModule,
      pricing: { model: 'per_unit', currency: 'USD', unit: 'x', unit_price_usd: '0.001', description: 'x' },
    } as const;
    // @ts-expect-error per_unit without units
    defineCapability(unpriced);
    const priced = defineCapability({
      ...base,
      pricing: {
        model: 'per_unit',
        currency: 'USD',
        unit: 'character',
        unit_price_usd: '0.001',
        description: 'x',
        units: (input) => input.text.length,
      },
      files: {
        field: 'upload_id',
        min_files: 1,
        max_files: 1,
        max_size_bytes: 10,
        content_types: ['text/plain'],
      },
      execution: { machine_run_status: 'supported', runtime: 'node', mode: 'async' },
      workload: 'cpu',
      result: Result,
      handler: async () => handlerModule,
    });
    expect(priced.units?.({ text: 'abc' }, [])).toBe(3);
    expect(priced.uploadIds?.({ text: 'a', upload_id: 'u-1' })).toEqual(['u-1']);
    expect(priced.fileRequirements).toEqual({
      accepts_files: true,
      min_files: 1,
      max_files: 1,
      max_size_bytes: 10,
      content_types: ['text/plain'],
    });
    expect(() => priced.units?.({ text: 1 }, [])).toThrow();
    const wrongField = {
      ...supported,
      handler: async () => handlerModule,
      files: { field: 'nope', min_files: 1, max_files: 1, max_size_bytes: 10, content_types: [] },
    } as const;
    // @ts-expect-error `nope` is not an input field that names uploads
    defineCapability(wrongField);
  });

  test('a probe declared with the files: pricing reads its facts typed, fileLimits checks them, describe omits it', () => {
    // A fact no contract names, measured by a probe of this declaration only.
    const lineProbe = defineProbe({
      facts: z.object({ lines: z.number().int().min(0).optional() }),
      contentTypes: ['text/plain'],
      measure: async () => ({
        default: streamMeasure(() => ({ write: () => undefined, facts: async () => ({ lines: 0 }) })),
      }),
      checkLimits: ({ lines }, requirements, input: z.output<typeof Input>) =>
        lines !== undefined && requirements.max_pages !== undefined && lines > requirements.max_pages
          ? { found: `has ${lines} lines (${input.text})`, limit: `${requirements.max_pages} lines` }
          : undefined,
    });
    const requiredFacts = z.object({ lines: z.number().int().min(0) });
    defineProbe({
      // @ts-expect-error a probe's facts are all optional (an upload older than the probe has none)
      facts: requiredFacts,
      contentTypes: ['text/plain'],
      measure: async () => ({ default: storedMeasure(async () => ({ lines: 1 })) }),
    });
    const files = {
      field: 'upload_id',
      min_files: 1,
      max_files: 1,
      max_size_bytes: 10,
      content_types: ['text/plain'],
      probe: lineProbe,
    } as const;
    const perLine = {
      model: 'per_unit',
      currency: 'USD',
      unit: 'line',
      unit_price_usd: '0.001',
      description: 'x',
    } as const;
    const lined = defineCapability({
      ...supported,
      handler: async () => handlerModule,
      files,
      pricing: {
        ...perLine,
        units: (_input, priced) => priced.reduce((sum, file) => sum + (file.facts.lines ?? 0), 0),
      },
    });
    expect(lined.probe).toBe(lineProbe);
    expect(lined.fileRequirements).not.toHaveProperty('probe');
    const file = (facts: Record<string, unknown>) => ({ upload_id: 'u-1', size_bytes: 5, facts });
    // Facts as the probe records them; another shape counts as none (an upload older than the probe).
    expect(lined.units?.({ text: 'a' }, [file({ lines: 4 }), file({ lines: 'x' }), file({})])).toBe(4);
    const requirements = { ...lined.fileRequirements, max_pages: 3 };
    expect(lined.fileLimits?.({ text: 'doc' }, { lines: 4, other: true }, requirements)).toEqual({
      found: 'has 4 lines (doc)',
      limit: '3 lines',
    });
    expect(lined.fileLimits?.({ text: 'doc' }, { lines: 3 }, requirements)).toBeUndefined();
    expect(lined.fileLimits?.({ text: 'doc' }, {}, requirements)).toBeUndefined();

    defineCapability({
      ...supported,
      handler: async () => handlerModule,
      files,
      pricing: {
        ...perLine,
        // @ts-expect-error `pages` is not a fact the declared probe records
        units: (_input, priced) => priced.reduce((sum, file) => sum + (file.facts.pages ?? 0), 0),
      },
    });
  });

  test('the catalog has unique slugs, and every runnable capability a lazily loaded handler', async () => {
    const slugs = CAPABILITIES.map((capability) => capability.slug);
    expect(new Set(slugs).size).toBe(slugs.length);
    for (const capability of CAPABILITIES) {
      if (capability.runnable) expect(capability.handler).toBeInstanceOf(Function);
    }
  });
});
