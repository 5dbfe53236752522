import type { CrtInput, CrtResult } from '@svc/contracts';
import { type CapabilitySettings, defineHandler } from '../kit/handler';
import { createCrtRunner } from './crt-runner';
import type { crtEnv } from './env';

/**
 * crt on a worker (design "Worker"): the runner (per-apex cache, crt.sh then Cert Spotter, result)
 * built once per process from the crt variables. Every provider failing is a `failed` outcome
 * (provider_unavailable), not a job failure; an unexpected error is retried by BullMQ.
 */
export default defineHandler<CrtInput, CrtResult, CapabilitySettings<typeof crtEnv>>(
  ({ settings, ports, logger }) => {
    const runCrt = createCrtRunner({
      crtShUrl: settings.CRT_SH_URL,
      certSpotterUrl: settings.CERTSPOTTER_URL,
      certSpotterToken: settings.CERTSPOTTER_TOKEN,
      providerTimeoutMs: settings.CRT_PROVIDER_TIMEOUT_MS,
      providerAttempts: settings.CRT_PROVIDER_ATTEMPTS,
      runDeadlineMs: settings.CRT_RUN_DEADLINE_MS,
      providerMaxBytes: settings.CRT_PROVIDER_MAX_BYTES,
      cacheTtlMs: settings.CRT_CACHE_TTL_MS,
      cacheMaxBytes: settings.CRT_CACHE_MAX_BYTES,
      cache: ports.cache,
      logger,
    });
    return {
      run: ({ input: { apex, include_first_seen, limit }, signal }) =>
        runCrt({ apex, include_first_seen, limit }, signal),
    };
  },
);
