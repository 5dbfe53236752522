import { z } from 'zod';
import { code, groupedNumber, humanBytes, humanMs, table } from './markdown';
import { descriptionOf } from './zod-text';

/** A service's env schema (`XxxEnv` of services/<name>/src/env.ts), by service name. */
export interface ServiceEnv {
  name: string;
  schema: z.ZodObject;
}

/** A group of variables several services read, spelled once in a shared fragment. */
export interface SharedFragment {
  /** How the doc names the group, e.g. "@svc/config `redisEnv`". */
  label: string;
  keys: readonly string[];
}

/** One variable of one service: its schema field. */
function fieldOf(service: ServiceEnv, key: string): z.ZodType | undefined {
  const field = service.schema.shape[key];
  return field instanceof z.ZodType ? field : undefined;
}

/**
 * The default as the doc shows it: what the schema yields for an unset variable (so transforms
 * apply: WORKER_RUNTIMES shows `node`), `required` when unset fails, `unset` when it is optional.
 * Durations (`*_MS`) also in people's units. No schema with a default holds a secret.
 */
export function defaultText(key: string, field: z.ZodType): string {
  const parsed = field.safeParse(undefined);
  if (!parsed.success) return 'required';
  const value: unknown = parsed.data;
  return valueText(key, value);
}

/** What the variable `key` of a service's env schema is when unset (its default), else undefined. */
export function unsetValue(service: ServiceEnv, key: string): unknown {
  const parsed = fieldOf(service, key)?.safeParse(undefined);
  return parsed?.success === true ? parsed.data : undefined;
}

function valueText(key: string, value: unknown): string {
  if (value === undefined) return 'unset';
  if (typeof value === 'number') {
    // A port is a name, not an amount: `8081`, not `8_081`.
    if (key.endsWith('PORT')) return code(String(value));
    const human = key.endsWith('_MS')
      ? humanMs(value)
      : key.endsWith('_BYTES')
        ? humanBytes(value)
        : undefined;
    return `${code(groupedNumber(value))}${human === undefined ? '' : ` (${human})`}`;
  }
  if (Array.isArray(value)) return code(value.map(String).join(','));
  return code(String(value));
}

/** "every service" or the names of the services that read `key`, in the service list's order. */
function readers(services: readonly ServiceEnv[], key: string): string {
  const names = services.filter((service) => fieldOf(service, key) !== undefined).map((s) => s.name);
  return names.length === services.length ? 'every service' : names.join(', ');
}

/** One default for all readers, or each reader's own (HEALTH_PORT differs per service). */
function sharedDefault(services: readonly ServiceEnv[], key: string): string {
  const byService = services.flatMap((service) => {
    const field = fieldOf(service, key);
    return field === undefined ? [] : [{ name: service.name, text: defaultText(key, field) }];
  });
  const texts = new Set(byService.map((entry) => entry.text));
  if (texts.size === 1) return byService[0]?.text ?? '—';
  return byService.map((entry) => `${entry.name} ${entry.text}`).join(', ');
}

function describedOrDash(field: z.ZodType | undefined): string {
  return descriptionOf(field) ?? '—';
}

/** The description all readers share, or each different one with its readers (HEALTH_PORT: 0 allowed). */
function sharedDescription(services: readonly ServiceEnv[], key: string): string {
  const byText = new Map<string, string[]>();
  for (const service of services) {
    const field = fieldOf(service, key);
    if (field === undefined) continue;
    const text = describedOrDash(field);
    byText.set(text, [...(byText.get(text) ?? []), service.name]);
  }
  if (byText.size <= 1) return [...byText.keys()][0] ?? '—';
  return [...byText].map(([text, names]) => `${names.join(', ')}: ${text}`).join(' ');
}

/** The table of the shared variables: which services read them, defaults, what they are. */
function sharedTable(services: readonly ServiceEnv[], fragments: readonly SharedFragment[]): string {
  const rows = fragments.flatMap((fragment) =>
    fragment.keys.map((key) => {
      return [
        code(key),
        sharedDefault(services, key),
        readers(services, key),
        `${sharedDescription(services, key)} (${fragment.label})`,
      ];
    }),
  );
  return table(['variable', 'default', 'read by', 'what'], rows);
}

/**
 * One service's own variables (those of no shared fragment), in its schema's order. `owners` names
 * the capability that declares a variable (the worker's env merges the capabilities' `env`).
 */
function serviceTable(
  service: ServiceEnv,
  shared: ReadonlySet<string>,
  owners: ReadonlyMap<string, string>,
): string {
  const rows = Object.keys(service.schema.shape)
    .filter((key) => !shared.has(key))
    .map((key) => {
      const field = fieldOf(service, key);
      const owner = owners.get(key);
      return [
        code(key),
        field === undefined ? '—' : defaultText(key, field),
        `${describedOrDash(field)}${owner === undefined ? '' : ` (capability ${code(owner)})`}`,
      ];
    });
  if (rows.length === 0) return 'Nothing of its own: only the shared variables above.';
  return table(['variable', 'default', 'what'], rows);
}

/** Every variable some service reads without a description, once each as `env: VARIABLE`. */
export function undescribedVariables(services: readonly ServiceEnv[]): string[] {
  const missing = services.flatMap((service) =>
    Object.entries(service.schema.shape)
      .filter(([, field]) => !(field instanceof z.ZodType) || descriptionOf(field) === undefined)
      .map(([key]) => `env: ${key}`),
  );
  return [...new Set(missing)];
}

/** The `env` region: the shared variables, then each service's own. */
export function envRegion(
  services: readonly ServiceEnv[],
  fragments: readonly SharedFragment[],
  owners: ReadonlyMap<string, string>,
): string {
  const shared = new Set(fragments.flatMap((fragment) => fragment.keys));
  const perService = services.map(
    (service) => `#### ${service.name}\n\n${serviceTable(service, shared, owners)}`,
  );
  return [
    'Shared variables (from the fragments in @svc/config and @svc/storage):',
    sharedTable(services, fragments),
    ...perService,
  ].join('\n\n');
}
