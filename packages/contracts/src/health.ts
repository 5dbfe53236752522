import { z } from 'zod';

/** 200 body of /healthz: the process is up (no dependency is checked). */
export const HealthResponse = z.object({
  ok: z.literal(true),
  service: z.string(),
  uptime_s: z.number().min(0),
});
export type HealthResponse = z.infer<typeof HealthResponse>;

/** One dependency check of /readyz; `error` is a short safe reason, present when `ok` is false. */
export const ReadinessCheck = z.object({
  ok: z.boolean(),
  error: z.string().optional(),
});
export type ReadinessCheck = z.infer<typeof ReadinessCheck>;

/**
 * One backing service as the gateway's /readyz sees it: every service instance reports itself ready
 * in Redis every 5 s while its own /readyz checks pass, and an instance that has not done so within
 * 15 s (stopped, crashed, crash-looping, or failing a check) no longer counts.
 */
export const ServiceReadiness = z.object({
  ok: z
    .boolean()
    .describe('At least one instance of the service reported itself ready within the last 15 s.'),
  instances: z.number().int().min(0).describe('How many instances did.'),
  error: z.string().optional().describe('Why the service counts as not ready, when `ok` is false.'),
});
export type ServiceReadiness = z.infer<typeof ServiceReadiness>;

/**
 * Body of /readyz: 200 when every check of this process passes, 503 (same shape, `ok: false`)
 * otherwise. `ok` is about this process only: the gateway stays ready (in a load balancer's
 * rotation) while one backing service is down, and says which in `services`.
 */
export const ReadinessResponse = z.object({
  ok: z.boolean(),
  service: z.string(),
  checks: z.record(z.string(), ReadinessCheck),
  services: z
    .record(z.string(), ServiceReadiness)
    .optional()
    .describe(
      "The gateway's /readyz only: each backing service (registry, wallet, orchestrator, uploads, vault, " +
        'worker) and whether it is ready. A service down here does not make the gateway unready: the ' +
        'operations that do not need it keep working. Absent when Redis did not answer (the `redis` check says why).',
    ),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
