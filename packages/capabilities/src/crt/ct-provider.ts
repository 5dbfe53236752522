import type { HostnameSet } from './crt-result';
import { fetchJsonArray, type JsonArrayAnswer } from './fetch-json-array';
import { HostnameCollector } from './hostname-collector';
import { budgetExhausted } from './provider-error';
import { type RetryPolicy, withRetries } from './retry';

/** A certificate-transparency search service (crt.sh, Cert Spotter). */
export interface CtProvider {
  /** Name reported in CrtResult.provider and in error messages: `crt.sh`, `certspotter`. */
  readonly name: string;
  /**
   * Every hostname of `apex` (the apex and names under it) the provider knows, with its earliest
   * time. Throws ProviderError when the provider gave no usable answer within `budget`; anything
   * else it throws is a bug or the job's signal.
   */
  fetchHostnames(apex: string, budget: ProviderBudget): Promise<ProviderAnswer>;
}

/** The time a provider may take, cut from the run's deadline (providers.ts splits it). */
export interface ProviderBudget {
  /** Epoch ms: no attempt runs past it. */
  deadline: number;
  /** The job's signal (cancellation, worker shutdown). */
  signal: AbortSignal;
}

/** A provider's HostnameSet (truncated: byte cap, or Cert Spotter's page cap), plus what it cost. */
export interface ProviderAnswer extends HostnameSet {
  /** bytes read from the provider (decompressed), for logs. */
  bytes: number;
}

/** What every provider client is built with (from the worker's env). */
export interface ProviderSettings {
  baseUrl: string;
  /** ms: one HTTP attempt (CRT_PROVIDER_TIMEOUT_MS). */
  timeoutMs: number;
  /** bytes: cap on one answer (CRT_PROVIDER_MAX_BYTES; Cert Spotter: all its pages together). */
  maxBytes: number;
  retry: RetryPolicy;
  /** Jitter source (tests); default Math.random. */
  random?: () => number;
  /** Clock (tests); default Date.now. */
  now?: () => number;
}

/** Sent on every provider request: identifies us to providers that rate-limit by client. */
const USER_AGENT = 'capability-service-crt/0.1 (+certificate-transparency lookups)';

/** `base` without trailing slashes, so `${base}/path` never has `//`. */
export function trimBase(base: string): string {
  return base.replace(/\/+$/, '');
}

/** What a provider's search reads into its collector (`collectingProvider`). */
export interface ProviderSearch {
  apex: string;
  budget: ProviderBudget;
  /** settings.baseUrl without trailing slashes. */
  base: string;
  /** One for the whole search: re-adding entries a failed attempt already read changes nothing. */
  collector: HostnameCollector;
}

/**
 * A provider whose `search` adds what it finds to a HostnameCollector of the apex and says whether
 * the answer was cut and what it read; the answer is the collector's entries, sorted.
 */
export function collectingProvider(
  name: string,
  settings: ProviderSettings,
  search: (search: ProviderSearch) => Promise<{ truncated: boolean; bytes: number }>,
): CtProvider {
  const base = trimBase(settings.baseUrl);
  return {
    name,
    async fetchHostnames(apex: string, budget: ProviderBudget): Promise<ProviderAnswer> {
      const collector = new HostnameCollector(apex);
      const { truncated, bytes } = await search({ apex, budget, base, collector });
      return { provider: name, entries: collector.sortedEntries(), truncated, bytes };
    },
  };
}

/** ms for the next attempt: the per-attempt timeout, cut to what is left of the budget. */
function attemptTimeoutMs(settings: ProviderSettings, budget: ProviderBudget): number {
  const left = budget.deadline - (settings.now ?? Date.now)();
  if (left <= 0) throw budgetExhausted();
  return Math.min(settings.timeoutMs, left);
}

/** What one provider request adds to its settings and budget. */
export interface ProviderRequest {
  url: string;
  /** Added to the common accept and user-agent headers (Cert Spotter: its Authorization). */
  headers?: Record<string, string>;
  /** bytes (decompressed) this request may still read. */
  maxBytes: number;
  onItem: (item: unknown) => void;
}

/**
 * GETs a provider's JSON array answer with its retries: every attempt gets the per-attempt timeout
 * cut to the budget, and no retry starts or waits past the budget's deadline (retry.ts).
 */
export function fetchProviderJsonArray(
  settings: ProviderSettings,
  budget: ProviderBudget,
  request: ProviderRequest,
): Promise<JsonArrayAnswer> {
  const headers = { accept: 'application/json', 'user-agent': USER_AGENT, ...request.headers };
  return withRetries(
    () =>
      fetchJsonArray({
        url: request.url,
        headers,
        timeoutMs: attemptTimeoutMs(settings, budget),
        signal: budget.signal,
        maxBytes: request.maxBytes,
        onItem: request.onItem,
        now: settings.now,
      }),
    settings.retry,
    { deadline: budget.deadline, signal: budget.signal, random: settings.random, now: settings.now },
  );
}
