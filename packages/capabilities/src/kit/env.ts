import type { CapabilityEnv } from './handler';

/** What `capabilityEnv` needs of a capability declaration. */
interface DeclaresEnv {
  readonly slug: string;
  readonly env?: CapabilityEnv;
}

/** The env fields of one declaration (`never`, i.e. none, when it reads no variable). */
type EnvOf<C> = C extends { readonly env?: infer Env } ? Extract<Env, CapabilityEnv> : never;

/** A union of env field sets turned into one object type holding all their fields. */
type Merged<U> = (U extends unknown ? (fields: U) => void : never) extends (fields: infer All) => void
  ? All
  : never;

/** Every capability's env fields in one object, typed field by field. */
export type CapabilitiesEnv<Capabilities extends readonly DeclaresEnv[]> = Merged<
  EnvOf<Capabilities[number]>
>;

/**
 * The env fields of all `capabilities`, in their order, for the worker's env schema to spread
 * (`z.object({ ...baseEnv, ...capabilityEnv(CAPABILITIES) })`). Two capabilities that declare the
 * same variable are a programming error: thrown at load, naming both.
 */
export function capabilityEnv<const Capabilities extends readonly DeclaresEnv[]>(
  capabilities: Capabilities,
): CapabilitiesEnv<Capabilities> {
  const fields: Record<string, CapabilityEnv[string]> = {};
  const owners = new Map<string, string>();
  for (const capability of capabilities) {
    for (const [name, schema] of Object.entries(capability.env ?? {})) {
      const owner = owners.get(name);
      if (owner !== undefined) {
        throw new Error(`env variable ${name} is declared by both ${owner} and ${capability.slug}`);
      }
      owners.set(name, capability.slug);
      fields[name] = schema;
    }
  }
  return fields as CapabilitiesEnv<Capabilities>;
}

/**
 * The settings of one capability out of the worker's parsed env: the values of its own env fields
 * only (a handler sees no other variable, secrets of other capabilities included).
 */
export function settingsOf(
  capability: DeclaresEnv,
  parsedEnv: Readonly<Record<string, unknown>>,
): Readonly<Record<string, unknown>> {
  return Object.fromEntries(Object.keys(capability.env ?? {}).map((name) => [name, parsedEnv[name]]));
}
