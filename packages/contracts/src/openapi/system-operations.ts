import { z } from 'zod';
import { HealthResponse, ReadinessResponse } from '../health';
import { defineOperation } from './operation-types';

/** Liveness, readiness, this document and the contract files: public, never behind a key. */
export const systemOperations = [
  defineOperation({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    rateLimit: 'exempt',
    summary: 'Liveness',
    tags: ['system'],
    auth: { kind: 'public' },
    success: { status: 200, description: 'The process is up.', schema: HealthResponse },
    errors: [],
  }),
  defineOperation({
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
  }),
  defineOperation({
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
  }),
  defineOperation({
    method: 'get',
    path: '/contract/manifest.json',
    operationId: 'contractManifest',
    rateLimit: 'exempt',
    summary: 'The contract manifest (spec §9.2)',
    description:
      'Every contract element of this interface version, sorted by id: REST endpoints, MCP tools, ' +
      'execution modes, run states and their transitions, lifecycles, error statuses, scopes and limits, ' +
      'each with its `deprecated` notice when it has one (`format`: `svc-contract-manifest/1`). The bytes ' +
      "of the committed file; the strong ETag is their SHA-256 in hex, the changelog's newest `manifest_sha256`.",
    tags: ['system'],
    auth: { kind: 'public' },
    success: {
      status: 200,
      description: 'contract/manifest.json.',
      schema: z.record(z.string(), z.unknown()),
    },
    errors: [],
  }),
  defineOperation({
    method: 'get',
    path: '/contract/changelog.json',
    operationId: 'contractChangelog',
    rateLimit: 'exempt',
    summary: 'The contract changelog (spec §9.3)',
    description:
      'Every contract change, oldest first, classified `additive`, `behavioral-risk` or `breaking`, with the ' +
      'element ids it touches, its date and the SHA-256 of the manifest after it ' +
      '(`format`: `svc-contract-changelog/1`).',
    tags: ['system'],
    auth: { kind: 'public' },
    success: {
      status: 200,
      description: 'contract/changelog.json.',
      schema: z.record(z.string(), z.unknown()),
    },
    errors: [],
  }),
] as const;
