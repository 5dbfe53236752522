import type { CtProvider, ProviderAnswer } from './ct-provider';
import { ProviderError } from './provider-error';

/** One provider's failure: `reason` in our words; `detail`, what a library said, for logs only. */
export interface ProviderFailure {
  provider: string;
  reason: string;
  detail?: string | undefined;
}

/** Every provider failed; `message` names each with its reason (stored with the run, shown to the client). */
export class ProvidersUnavailableError extends Error {
  /** The libraries' own words per provider, for the worker's log (never in `message`); undefined if none. */
  readonly detail: string | undefined;

  constructor(failures: readonly ProviderFailure[]) {
    super(`crt providers unavailable: ${failures.map((f) => `${f.provider}: ${f.reason}`).join('; ')}`);
    this.name = 'ProvidersUnavailableError';
    const details = failures.flatMap((f) => (f.detail === undefined ? [] : [`${f.provider}: ${f.detail}`]));
    this.detail = details.length === 0 ? undefined : details.join('; ');
  }
}

export interface FailoverOptions {
  /** ms: what all providers together may take for this run (CRT_RUN_DEADLINE_MS). */
  deadlineMs: number;
  signal: AbortSignal;
  now?: () => number;
}

/**
 * Asks the providers in order (crt.sh first, Cert Spotter as fallback) and returns the first
 * usable answer. One deadline covers them all: each provider gets an equal share of what is left
 * when its turn comes, so a first provider that hangs cannot starve the fallback, and time it did
 * not use goes to the next. Throws ProvidersUnavailableError when every one fails; anything that is
 * not a ProviderError (a bug, the job's signal) is thrown as is.
 */
export async function fetchWithFailover(
  apex: string,
  providers: readonly CtProvider[],
  options: FailoverOptions,
): Promise<ProviderAnswer> {
  const now = options.now ?? Date.now;
  const deadline = now() + options.deadlineMs;
  const failures: ProviderFailure[] = [];
  for (const [index, provider] of providers.entries()) {
    const left = deadline - now();
    if (left <= 0) {
      failures.push({ provider: provider.name, reason: 'not tried: no time left in the run deadline' });
      continue;
    }
    const share = Math.floor(left / (providers.length - index));
    try {
      return await provider.fetchHostnames(apex, { deadline: now() + share, signal: options.signal });
    } catch (err) {
      if (!(err instanceof ProviderError)) throw err;
      failures.push({ provider: provider.name, reason: err.describe(), detail: err.detail });
    }
  }
  throw new ProvidersUnavailableError(failures);
}
