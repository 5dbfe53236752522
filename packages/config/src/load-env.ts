import type { z } from 'zod';

/** The environment as a plain record (process.env or a test's object). */
export type EnvSource = Readonly<Record<string, string | undefined>>;

/** Thrown by loadEnv when variables are missing or invalid; `problems` has one entry per variable. */
export class ConfigError extends Error {
  readonly problems: ReadonlyArray<{ variable: string; message: string }>;

  constructor(problems: ReadonlyArray<{ variable: string; message: string }>) {
    super(`Invalid configuration: ${problems.map((p) => `${p.variable}: ${p.message}`).join('; ')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * An empty variable (`PORT=` in a shell or .env file) counts as unset, so defaults apply and
 * required variables report "required" rather than a confusing format error.
 */
function withoutEmpty(env: EnvSource): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(env)) if (value !== undefined && value !== '') out[key] = value;
  return out;
}

/**
 * Parses the environment with `schema` (an object of variable name -> zod schema; see the
 * fragments and helpers in this package). On failure throws ConfigError naming every bad
 * variable, e.g. `Invalid configuration: PORT: expected an integer between 1 and 65535, got "abc";
 * DATABASE_URL: required`. Messages come from the helpers, which never print secret values.
 */
export function loadEnv<S extends z.ZodType>(schema: S, env: EnvSource = process.env): z.output<S> {
  const source = withoutEmpty(env);
  const result = schema.safeParse(source);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const variable = issue.path.length > 0 ? issue.path.map(String).join('.') : '(environment)';
    const missing =
      issue.code === 'invalid_type' && issue.path.length > 0 && source[String(issue.path[0])] === undefined;
    return { variable, message: missing ? 'required' : issue.message };
  });
  throw new ConfigError(problems);
}

/**
 * loadEnv for a service's `src/env.ts`: on ConfigError prints the message to stderr and exits 1
 * (a misconfigured process must not start half-working). Other errors propagate.
 */
export function loadEnvOrExit<S extends z.ZodType>(schema: S, env: EnvSource = process.env): z.output<S> {
  try {
    return loadEnv(schema, env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  }
}

/**
 * A service's `loadXxxEnv` (its `src/env.ts`, the only place that reads process.env): parses the
 * environment (default process.env) with `schema`; a bad or missing variable prints which one and
 * exits 1 (loadEnvOrExit).
 */
export function envLoader<S extends z.ZodType>(schema: S): (source?: EnvSource) => z.output<S> {
  return (source = process.env) => loadEnvOrExit(schema, source);
}
