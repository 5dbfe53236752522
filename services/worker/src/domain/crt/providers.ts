import type { CtProvider, ProviderAnswer } from './ct-provider';
import { ProviderError } from './provider-error';

/** Every provider failed; `message` names each with its reason (stored with the run, shown to the client). */
export class ProvidersUnavailableError extends Error {
  constructor(failures: readonly { provider: string; reason: string }[]) {
    super(`crt providers unavailable: ${failures.map((f) => `${f.provider}: ${f.reason}`).join('; ')}`);
    this.name = 'ProvidersUnavailableError';
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
  const failures: { provider: string; reason: string }[] = [];
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
      failures.push({ provider: provider.name, reason: err.describe() });
    }
  }
  throw new ProvidersUnavailableError(failures);
}
