import {
  type CrtInput,
  type CrtResult,
  RUN_ERROR_CODES,
  type RunError,
  type RunMetrics,
} from '@svc/contracts';
import type { Logger } from '@svc/log';
import type { CachePort } from '../kit/handler';
import { certSpotterProvider } from './certspotter';
import { buildCrtResult, type HostnameSet } from './crt-result';
import { crtShProvider } from './crt-sh';
import { HostnameSource } from './hostname-source';
import { fetchWithFailover, ProvidersUnavailableError } from './providers';
import { DEFAULT_RETRY_POLICY } from './retry';

/** What a crt run ended with; the job handler turns it into an `orchestrator.reportRun` call. */
export type CrtOutcome =
  | { kind: 'completed'; result: CrtResult; metrics: RunMetrics }
  | { kind: 'failed'; error: RunError; metrics: RunMetrics; detail?: string };

/** Runs one crt request; throws only on unexpected errors (bugs, the job's signal). */
export type CrtRunner = (request: CrtInput, signal: AbortSignal) => Promise<CrtOutcome>;

/** The crt settings (crt/env.ts, /tmp/design.md "Env vars"), as plain values. */
export interface CrtRunnerOptions {
  crtShUrl: string;
  certSpotterUrl: string;
  /** Secret: only ever put in the Authorization header. */
  certSpotterToken?: string;
  /** ms per HTTP attempt. */
  providerTimeoutMs: number;
  /** HTTP attempts per provider request. */
  providerAttempts: number;
  /** ms for all providers of one run. */
  runDeadlineMs: number;
  /** bytes read at most from one provider answer. */
  providerMaxBytes: number;
  /** ms; 0 = cache off. */
  cacheTtlMs: number;
  /** bytes (gzip) of the largest cache entry. */
  cacheMaxBytes: number;
  /** The per-apex cache (the worker's Redis through its cache port). */
  cache: CachePort;
  logger: Logger;
  /** Jitter source (tests); default Math.random. */
  random?: () => number;
}

/** Builds the crt runner: crt.sh then Cert Spotter, behind the per-apex cache. */
export function createCrtRunner(options: CrtRunnerOptions): CrtRunner {
  const common = {
    timeoutMs: options.providerTimeoutMs,
    maxBytes: options.providerMaxBytes,
    retry: { ...DEFAULT_RETRY_POLICY, attempts: options.providerAttempts },
    random: options.random,
  };
  const providers = [
    crtShProvider({ ...common, baseUrl: options.crtShUrl }),
    certSpotterProvider({ ...common, baseUrl: options.certSpotterUrl, token: options.certSpotterToken }),
  ];
  const source = new HostnameSource({
    cache: options.cache,
    ttlMs: options.cacheTtlMs,
    maxBytes: options.cacheMaxBytes,
    logger: options.logger,
    fetch: async (apex, signal): Promise<HostnameSet> => {
      const answer = await fetchWithFailover(apex, providers, { deadlineMs: options.runDeadlineMs, signal });
      options.logger.info(
        {
          apex,
          provider: answer.provider,
          hostnames: answer.entries.length,
          bytes: answer.bytes,
          truncated: answer.truncated,
        },
        'crt provider answered',
      );
      return answer;
    },
  });

  return async (request, signal) => {
    const started = Date.now();
    try {
      const lookup = await source.lookup(request.apex, signal);
      return {
        kind: 'completed',
        result: buildCrtResult(request, lookup.set),
        metrics: { provider: lookup.set.provider, provider_ms: lookup.providerMs, cache: lookup.cache },
      };
    } catch (err) {
      if (!(err instanceof ProvidersUnavailableError)) throw err;
      return {
        kind: 'failed',
        error: { code: RUN_ERROR_CODES.providerUnavailable, message: err.message },
        metrics: { provider_ms: Date.now() - started, cache: options.cacheTtlMs > 0 ? 'miss' : 'off' },
        ...(err.detail === undefined ? {} : { detail: err.detail }),
      };
    }
  };
}
