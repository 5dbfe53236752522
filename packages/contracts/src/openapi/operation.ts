import type { z } from 'zod';
import type {
  ZodOpenApiContentObject,
  ZodOpenApiOperationObject,
  ZodOpenApiParameters,
  ZodOpenApiResponseObject,
  ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { ErrorResponse, type Scope } from '../common';
import {
  type RateLimitClass,
  RateLimitHeaders,
  rateLimitClassOf,
  TooManyRequestsHeaders,
} from './rate-limits';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** Error statuses an operation may declare; each is answered with an ErrorResponse body. */
export type ErrorStatus =
  | 400
  | 401
  | 402
  | 403
  | 404
  | 405
  | 408
  | 409
  | 413
  | 415
  | 422
  | 429
  | 500
  | 502
  | 503
  | 504;

/** The generic meaning of each error status (an operation may say more in `errorNotes`). */
export const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Malformed request (e.g. a body that is not JSON).',
  401: 'Missing, malformed, unknown or revoked API key.',
  402: 'Wallet or spend-cap hard stop: the message names the price and the limit.',
  403: 'The API key lacks a required scope.',
  404: 'Not found.',
  405: 'Method not allowed on this path.',
  408: 'The request (its body) did not arrive in time; send it again.',
  409: 'Conflict with the current state (e.g. the same idempotency key still in flight).',
  413: 'Request body too large.',
  415: 'The body is not application/json.',
  422: 'Invalid parameters or body; `error` names each offending field.',
  429:
    'Rate limit: the budget this request spends from is used up for now; `error` names the budget, its ' +
    'limit and when to retry, as `Retry-After` does.',
  500: 'Internal error; details are logged, never returned.',
  502: 'An outside provider the capability depends on failed or is unavailable.',
  503: 'A backing service is unavailable or timed out; retry later.',
  504: 'A backing service did not answer in time.',
};

/** A response with a JSON body; `headers`: the ones a client may rely on (header name → schema). */
export interface JsonResponse {
  description: string;
  schema: z.ZodType;
  headers?: z.ZodObject;
  /**
   * Other media types the same answer may come in, listed without a schema (`POST /mcp` answers a
   * request that asked for progress as `text/event-stream`: the notifications, then this JSON).
   */
  alsoAs?: readonly string[];
}

/**
 * A response of raw bytes (a file download): the media types it may come in (`*\/*`: whatever the
 * file is) instead of a JSON schema. OpenAPI 3.1 describes raw binary content by its media type
 * alone, without a schema ("Working with binary data").
 */
export interface BinaryResponse {
  description: string;
  binary: readonly string[];
  headers?: z.ZodObject;
}

/** A request body: JSON checked by `schema`, or raw bytes in one of the `binary` media types. */
export type RequestBody =
  | {
      schema: z.ZodType;
      description?: string;
      /**
       * `document`: the body may carry a whole document (vault extractions and fills), so the gateway
       * reads it with its larger document limit instead of JSON_BODY_LIMIT. Not rendered.
       */
      limit?: 'document';
    }
  | { binary: readonly string[]; description: string };

/**
 * Who may call an operation. `public`: no security requirement (spec §4: list and describe).
 * `key`: bearer API key with `scopes` (empty: any valid key). `upload-token`: the dedicated upload
 * token of an upload session as bearer, never an API key (spec §4.7, §5.4); no scopes.
 */
export type OperationAuth =
  | { kind: 'public' }
  | { kind: 'key'; scopes: readonly Scope[] }
  | { kind: 'upload-token' };

/**
 * One REST operation, declared once in the resource's `*-operations.ts` file and turned into the
 * OpenAPI document by buildOpenApiDocument(). `auth` drives both the security requirement and the
 * `x-required-scopes` extension, so the document and the gateway's scope check can share it.
 */
export interface ApiOperation {
  method: HttpMethod;
  /** OpenAPI path template, e.g. `/api/capabilities/{slug}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  auth: OperationAuth;
  params?: ZodOpenApiParameters;
  /**
   * For an operation without `params.query` that says it takes no parameters: a query parameter
   * sent anyway is refused with 422 naming it (decisions D2) instead of being ignored. Not rendered
   * (the description says so, and 422 is among the errors).
   */
  refusesQuery?: true;
  body?: RequestBody;
  success: (JsonResponse | BinaryResponse) & { status: 200 | 201 | 202 };
  /**
   * Responses with a body other than ErrorResponse: a second success status (the crt run answers
   * 202 when it outlives the wait; a capability run 200 when it is already finished or replayed) or
   * an error status with its own body (/readyz answers 503 with its report).
   */
  otherResponses?: Partial<Record<ErrorStatus | 200 | 202, JsonResponse>>;
  errors: readonly ErrorStatus[];
  /**
   * What an error status means for this operation (e.g. 409 on cancel: the run already finished),
   * in place of the generic description; only for statuses listed in `errors`.
   */
  errorNotes?: Partial<Record<ErrorStatus, string>>;
  /**
   * The rate-limit budget the operation spends from (rate-limits.ts). Omitted: `reads` for a GET;
   * any other method must declare one. Every operation but `exempt` ones answers 429 and carries
   * the RateLimit headers, so neither is listed in `errors`.
   */
  rateLimit?: RateLimitClass;
}

function scopeSentence(scopes: readonly Scope[]): string {
  return scopes.length === 0
    ? 'Requires a valid API key (any scope).'
    : `Requires a valid API key with scope ${scopes.map((s) => `\`${s}\``).join(', ')}.`;
}

function jsonResponse({ description, schema, headers, alsoAs = [] }: JsonResponse): ZodOpenApiResponseObject {
  return {
    description,
    content: { 'application/json': { schema }, ...binaryContent(alsoAs) },
    ...(headers ? { headers } : {}),
  };
}

/** Media types of raw bytes: an empty media type object each (no schema: the bytes are the content). */
function binaryContent(mediaTypes: readonly string[]): ZodOpenApiContentObject {
  return Object.fromEntries(mediaTypes.map((type) => [type, {}]));
}

function successResponse(success: JsonResponse | BinaryResponse, limited: boolean): ZodOpenApiResponseObject {
  // A limited operation's answers all carry RateLimit and RateLimit-Policy (the gateway sets them first).
  const headers =
    limited && success.headers
      ? success.headers.extend(RateLimitHeaders.shape)
      : limited
        ? RateLimitHeaders
        : success.headers;
  if ('schema' in success) return jsonResponse({ ...success, ...(headers ? { headers } : {}) });
  return {
    description: success.description,
    content: binaryContent(success.binary),
    ...(headers ? { headers } : {}),
  };
}

/** The security requirement of each kind of auth, by the scheme names of document.ts. */
function securityOf(auth: OperationAuth): Array<Record<string, string[]>> {
  switch (auth.kind) {
    case 'public':
      // An explicit empty list overrides the document's global bearerAuth requirement.
      return [];
    case 'key':
      return [{ bearerAuth: [] }];
    case 'upload-token':
      return [{ uploadToken: [] }];
  }
}

function authSentence(auth: OperationAuth): string {
  switch (auth.kind) {
    case 'public':
      return 'No authentication.';
    case 'key':
      return scopeSentence(auth.scopes);
    case 'upload-token':
      return (
        'Requires the upload token of the session (`Authorization: Bearer upl_...`), not an API key: ' +
        'an API key here is refused with 401.'
      );
  }
}

function rateLimitSentence(rateLimit: RateLimitClass): string {
  switch (rateLimit) {
    case 'exempt':
      return 'Not rate-limited.';
    case 'per-tool-call':
      return (
        "Rate limit: each JSON-RPC message spends one point of the budget of its tool's REST twin " +
        '(any other message: `reads`); a call over budget is an `isError` result with the 429 message.'
      );
    default:
      return `Rate limit: spends one point of the \`${rateLimit}\` budget (429 when it is used up).`;
  }
}

/** A three-digit HTTP status as a key of an OpenAPI responses object. */
function isStatusKey(key: string): key is `${1 | 2 | 3 | 4 | 5}${string}` {
  return /^[1-5][0-9][0-9]$/.test(key);
}

/** Renders one ApiOperation as a zod-openapi operation object. */
export function toOpenApiOperation(op: ApiOperation): ZodOpenApiOperationObject {
  const rateLimit = rateLimitClassOf(op);
  const limited = rateLimit !== 'exempt';
  const responses: ZodOpenApiResponsesObject = {
    [`${op.success.status}`]: successResponse(op.success, limited),
  };
  for (const status of op.errors) {
    const description = op.errorNotes?.[status] ?? ERROR_DESCRIPTIONS[status];
    responses[`${status}`] = jsonResponse({ description, schema: ErrorResponse });
  }
  if (limited && !op.errors.includes(429)) {
    responses['429'] = jsonResponse({
      description: ERROR_DESCRIPTIONS[429],
      schema: ErrorResponse,
      headers: TooManyRequestsHeaders,
    });
  }
  const declared = new Set<number>(op.errors);
  for (const status of Object.keys(op.errorNotes ?? {})) {
    if (!declared.has(Number(status))) {
      throw new Error(`${op.operationId}: errorNotes names ${status}, which is not in errors`);
    }
  }
  for (const [status, response] of Object.entries(op.otherResponses ?? {})) {
    if (response && isStatusKey(status)) responses[status] = jsonResponse(response);
  }
  const operation: ZodOpenApiOperationObject = {
    operationId: op.operationId,
    summary: op.summary,
    description: [op.description, authSentence(op.auth), rateLimitSentence(rateLimit)]
      .filter(Boolean)
      .join('\n\n'),
    tags: [...op.tags],
    responses,
    security: securityOf(op.auth),
    'x-required-scopes': op.auth.kind === 'key' ? [...op.auth.scopes] : [],
    // The budget (README "Rate limits"); `per-tool-call`: each MCP message spends from its tool's.
    'x-rate-limit-budget': rateLimit,
  };
  if (op.params) operation.requestParams = op.params;
  if (op.body) {
    const { body } = op;
    operation.requestBody = {
      required: true,
      ...(body.description ? { description: body.description } : {}),
      content:
        'schema' in body ? { 'application/json': { schema: body.schema } } : binaryContent(body.binary),
    };
  }
  return operation;
}
