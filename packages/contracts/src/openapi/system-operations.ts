import { z } from 'zod';
import { HealthResponse, ReadinessResponse } from '../health';
import type { ApiOperation } from './operation';

/** Liveness, readiness and this document: public, never behind a key. */
export const systemOperations: readonly ApiOperation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
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
    summary: 'Readiness',
    description: 'Checks the dependencies (database, Redis, backing services).',
    tags: ['system'],
    auth: { kind: 'public' },
    success: { status: 200, description: 'Every dependency answers.', schema: ReadinessResponse },
    otherResponses: {
      503: { description: 'At least one dependency failed; `checks` names it.', schema: ReadinessResponse },
    },
    errors: [],
  },
  {
    method: 'get',
    path: '/openapi.json',
    operationId: 'openApiDocument',
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
