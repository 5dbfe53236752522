import { z } from 'zod';
import { HealthResponse, ReadinessResponse } from '../health';
import type { ApiOperation } from './operation';

/** Liveness, readiness and this document: public, never behind a key. */
export const systemOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    rateLimit: 'exempt',
    summary: 'Liveness',
    tags: ['system'],
    auth: { kind: 'public' },
    success: { status: 200, description: 'The process is up.', schema: HealthResponse },
    errors: [],
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    rateLimit: 'exempt',
    summary: 'Readiness',
    description:
      "Checks this gateway's own dependencies (database, Redis) and reports each backing service in " +
      '`services` (ready when one of its instances reported ready within the last 15 s). A backing ' +
      'service that is down or crash-looping shows there as `ok: false` without making the gateway ' +
      'unready: operations that do not need it keep working.',
    tags: ['system'],
    auth: { kind: 'public' },
    success: {
      status: 200,
      description: "The gateway's own dependencies answer (see `services` for the backing services).",
      schema: ReadinessResponse,
    },
    otherResponses: {
      503: {
        description: "At least one of the gateway's own dependencies failed; `checks` names it.",
        schema: ReadinessResponse,
      },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
    rateLimit: 'exempt',
    summary: 'This OpenAPI 3.1 document',
    tags: ['system'],
    auth: { kind: 'public' },
    success: {
      status: 200,
      description: 'The machine-readable description of this interface.',
      schema: z.record(z.string(), z.unknown()),
    },
    errors: [],
  },
];
