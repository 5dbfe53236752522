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

/** Body of /readyz: 200 when every check passes, 503 (same shape, `ok: false`) otherwise. */
export const ReadinessResponse = z.object({
  ok: z.boolean(),
  service: z.string(),
  checks: z.record(z.string(), ReadinessCheck),
});
export type ReadinessResponse = z.infer<typeof ReadinessResponse>;
