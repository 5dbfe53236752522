import { z } from 'zod';
import { Uuid } from '../common';
import {
  CandidateDecision,
  CreateExtractionRequest,
  DeleteVaultFieldQuery,
  DeleteVaultFieldResponse,
  ExtractionCandidate,
  ExtractionIdParams,
  ExtractionResponse,
  FillDocumentRequest,
  FillDocumentResponse,
  FillReport,
  ListExtractionsQuery,
  ListExtractionsResponse,
  ListVaultDocumentsResponse,
  ListVaultFieldsResponse,
  ReviewExtractionRequest,
  ReviewExtractionResponse,
  SaveVaultFieldRequest,
  SaveVaultFieldResponse,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_UPLOAD_SLUG,
  VaultAuditEvent,
  VaultAuditQuery,
  VaultAuditResponse,
  VaultDocument,
  VaultExtraction,
  VaultField,
  VaultFieldNameParams,
  VaultFieldType,
  VaultProfileResponse,
} from '../vault';
import type { ErrorStatus } from './operation';
import { defineOperation } from './operation-types';

/** `{document_id}` of GET /api/vault/documents/{document_id}. */
export const VaultDocumentIdParams = z
  .object({ document_id: Uuid.describe('Document ID (UUID), as fill-document answered it.') })
  .strict();

/** `Location` of a created extraction or filled document: where it is read again. */
const CreatedLocationHeader = (what: string) =>
  z.object({ Location: z.string().describe(`The ${what}: /api/vault/${what}s/{id}.`) });

/** The vault's shapes as named components of the document (document.ts merges them). */
export const vaultComponentSchemas: Readonly<Record<string, { schema: z.ZodType; io: 'input' | 'output' }>> =
  {
    VaultFieldType: { schema: VaultFieldType, io: 'output' },
    VaultField: { schema: VaultField, io: 'output' },
    SaveVaultFieldRequest: { schema: SaveVaultFieldRequest, io: 'input' },
    ExtractionCandidate: { schema: ExtractionCandidate, io: 'output' },
    VaultExtraction: { schema: VaultExtraction, io: 'output' },
    CreateExtractionRequest: { schema: CreateExtractionRequest, io: 'input' },
    CandidateDecision: { schema: CandidateDecision, io: 'input' },
    ReviewExtractionRequest: { schema: ReviewExtractionRequest, io: 'input' },
    FillDocumentRequest: { schema: FillDocumentRequest, io: 'input' },
    FillReport: { schema: FillReport, io: 'output' },
    VaultDocument: { schema: VaultDocument, io: 'output' },
    VaultAuditEvent: { schema: VaultAuditEvent, io: 'output' },
  };

const TAGS = ['vault'];
/** Every vault read: the key and scope, an unknown query parameter, the vault down. */
const READ_ERRORS: readonly ErrorStatus[] = [401, 403, 422, 500, 503];
/** Every vault write with a JSON body. */
const BODY_ERRORS: readonly ErrorStatus[] = [400, 401, 403, 404, 409, 413, 415, 422, 500, 503];

const MASKED =
  'Values are only ever returned masked by type (`j***@example.com`, `DE89 **** **** **** **30 00`, ' +
  '`**** 1111`); no endpoint returns a plaintext value.';
const OTHER_CLIENT = "another client's";
const UPLOAD_NOTE =
  `An \`upload_id\` is an upload of the reserved target \`${VAULT_DOCUMENT_UPLOAD_SLUG}\` ` +
  `(POST /api/capabilities/${VAULT_DOCUMENT_UPLOAD_SLUG}/upload-session, then PUT the bytes): ` +
  `${VAULT_DOCUMENT_CONTENT_TYPES.join(', ')}, at most ${VAULT_DOCUMENT_MAX_BYTES} bytes.`;

/** Spec §4.15-§4.20 and ours (decisions VL4): the client's private-data vault. */
export const vaultOperations = [
  defineOperation({
    method: 'get',
    path: '/api/vault/profile',
    operationId: 'getVaultProfile',
    summary: "The client's vault at a glance",
    description:
      'Fields per type, which common profile fields are present or missing, pending extractions, the last ' +
      'change, the key version new values are wrapped with and how many fields are still on an older one. ' +
      'No values, not even masked. Takes no parameters.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:read'] },
    refusesQuery: true,
    success: { status: 200, description: 'The profile.', schema: VaultProfileResponse },
    errors: READ_ERRORS,
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/fields',
    operationId: 'listVaultFields',
    summary: "The client's vault fields, masked",
    description: `Every field of the client, by name, with type, masked value, version, source and key version. ${MASKED} Takes no parameters.`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:read'] },
    refusesQuery: true,
    success: { status: 200, description: 'The fields.', schema: ListVaultFieldsResponse },
    errors: READ_ERRORS,
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/fields',
    operationId: 'saveVaultField',
    rateLimit: 'transfers',
    summary: 'Create or update a vault field',
    description:
      'Validates the value by its type (IBAN mod-97, card Luhn, E.164 phone, ISO date, ISO 3166 country, …), ' +
      'encrypts it with a data key of its own and stores it. Without `expected_version` it creates the field ' +
      '(409 when the name exists, naming its version); with it, it updates only a field at exactly that ' +
      `version (409 otherwise, 404 when there is none). ${MASKED}`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:write'] },
    body: { schema: SaveVaultFieldRequest },
    success: {
      status: 201,
      description: 'The field was created (`outcome: created`), masked.',
      schema: SaveVaultFieldResponse,
    },
    otherResponses: {
      200: {
        description: 'The field was updated (`outcome: updated`), masked.',
        schema: SaveVaultFieldResponse,
      },
    },
    errors: BODY_ERRORS,
    errorNotes: {
      404: '`expected_version` was sent for a field that does not exist.',
      409: 'The field exists (create) or is no longer at `expected_version` (update); `error` names its version.',
      422:
        'Invalid body, an unknown type, or a value that fails the check of its type: `error` names the field and the ' +
        'rule, never the value. Also: the client already has the most fields allowed.',
    },
  }),
  defineOperation({
    method: 'delete',
    path: '/api/vault/fields/{name}',
    operationId: 'deleteVaultField',
    rateLimit: 'transfers',
    summary: 'Delete a vault field and its data key',
    description:
      'Removes the field with its wrapped data key and ciphertext (crypto-shredding: nothing stored afterwards ' +
      'opens the value; backups from before are covered by key rotation, see the README). With ' +
      '`expected_version`, only a field at exactly that version is deleted.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:write'] },
    params: { path: VaultFieldNameParams, query: DeleteVaultFieldQuery },
    success: {
      status: 200,
      description: 'The deleted field and its last version.',
      schema: DeleteVaultFieldResponse,
    },
    errors: [401, 403, 404, 409, 422, 500, 503],
    errorNotes: {
      404: 'No such field.',
      409: 'The field is no longer at `expected_version`.',
      422: 'A malformed name or `expected_version`, or an unknown query parameter.',
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/extractions',
    operationId: 'listVaultExtractions',
    summary: "The client's review-first extractions",
    description: `Newest first, optionally only one status, candidates masked. ${MASKED}`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:read'] },
    params: { query: ListExtractionsQuery },
    success: { status: 200, description: 'The extractions.', schema: ListExtractionsResponse },
    errors: READ_ERRORS,
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/extractions',
    operationId: 'createVaultExtraction',
    rateLimit: 'runs',
    summary: 'Propose vault fields found in a document (nothing is saved yet)',
    description:
      'Reads a document (text in the body, up to 200,000 characters, or an upload) and stores the candidates ' +
      'it finds (field name, type, masked value, confidence, page and character span), encrypted, as a ' +
      '`pending` extraction. Nothing reaches the fields until the extraction is reviewed; a pending ' +
      `extraction expires (its candidates destroyed) at \`expires_at\`. ${UPLOAD_NOTE}`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:write'] },
    body: { schema: CreateExtractionRequest, limit: 'document' },
    success: {
      status: 201,
      description: 'The pending extraction, candidates masked.',
      schema: ExtractionResponse,
      headers: CreatedLocationHeader('extraction'),
    },
    errors: BODY_ERRORS,
    errorNotes: {
      404: `Unknown upload (or ${OTHER_CLIENT}).`,
      409: 'The upload is not complete, has expired or was deleted.',
      413: 'The body is over the document route limit (a 200,000-character text always fits).',
      422:
        `Invalid body; an upload of another target than \`${VAULT_DOCUMENT_UPLOAD_SLUG}\`; a document that is not ` +
        'what its content type says, or cannot be read.',
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/extractions/{extraction_id}',
    operationId: 'getVaultExtraction',
    summary: 'One extraction with its candidates, masked',
    description: `The extraction and its \`version\` (send it back as \`expected_version\` when reviewing). ${MASKED}`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:read'] },
    params: { path: ExtractionIdParams },
    refusesQuery: true,
    success: { status: 200, description: 'The extraction.', schema: ExtractionResponse },
    errors: [401, 403, 404, 422, 500, 503],
    errorNotes: { 404: `Unknown extraction; ${OTHER_CLIENT} answers the same.` },
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/extractions/{extraction_id}/review',
    operationId: 'reviewVaultExtraction',
    rateLimit: 'transfers',
    summary: 'Approve or reject candidates of an extraction',
    description:
      'Decisions about some or all pending candidates, applied together or not at all. `approve` saves the ' +
      'candidate as a field (optionally under another `field_name`, with a corrected `value` or another ' +
      '`type`); into an existing field only with `field_version` equal to its version. `reject` drops it. ' +
      'Each approval decrypts the candidate once and writes an audit line (purpose `approve`). The extraction ' +
      'is `reviewed` once no candidate is pending.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:write'] },
    params: { path: ExtractionIdParams },
    body: { schema: ReviewExtractionRequest },
    success: {
      status: 200,
      description: 'The extraction at its new version and the fields the approvals saved, masked.',
      schema: ReviewExtractionResponse,
    },
    errors: BODY_ERRORS,
    errorNotes: {
      404: `Unknown extraction (${OTHER_CLIENT} answers the same), or a candidate it does not have.`,
      409:
        'The extraction is no longer at `expected_version`, is expired or reviewed, a candidate was already ' +
        'decided, or a target field exists without (or at another) `field_version`.',
      422: 'Invalid body, or an approved value that fails the check of its type (naming the field, never the value).',
    },
  }),
  defineOperation({
    method: 'post',
    path: '/api/vault/fill-document',
    operationId: 'fillVaultDocument',
    rateLimit: 'runs',
    summary: 'Fill a template with the allowed vault fields into a private document',
    description:
      'Fills an uploaded PDF form (AcroForm fields named after vault fields) or a text, Markdown or HTML ' +
      'template (`{{field_name}}` placeholders; HTML values escaped) with the fields listed in `fields` and ' +
      'no other: a placeholder naming a field the list does not allow is left empty and reported. The result ' +
      'is a private artifact of the client (download it with its link and a key with `artifacts:read`), kept ' +
      `until \`expires_at\`. Each decrypted field writes an audit line (purpose \`fill\`). ${UPLOAD_NOTE}`,
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:fill'] },
    body: { schema: FillDocumentRequest, limit: 'document' },
    success: {
      status: 201,
      description:
        'The document: its report (filled, unknown, not_allowed, empty) and its artifact with a download link.',
      schema: FillDocumentResponse,
      headers: CreatedLocationHeader('document'),
    },
    errors: BODY_ERRORS,
    errorNotes: {
      403: 'The key lacks `vault:fill` (`vault:read` and `vault:write` do not allow a fill).',
      404: `Unknown template upload (or ${OTHER_CLIENT}).`,
      409: 'The template upload is not complete, has expired or was deleted.',
      413: 'The body is over the document route limit (a 200,000-character template always fits).',
      422:
        'Invalid body; a template that is not what its type says (a PDF without a form, text that is not ' +
        `UTF-8); an upload of another target than \`${VAULT_DOCUMENT_UPLOAD_SLUG}\`.`,
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/documents',
    operationId: 'listVaultDocuments',
    summary: "The client's filled documents, with fresh download links",
    description:
      'Newest first, until each is deleted at `expires_at`. Requires `vault:fill`, not `vault:read`: the ' +
      'links lead to plaintext values. Takes no parameters.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:fill'] },
    refusesQuery: true,
    success: { status: 200, description: 'The documents.', schema: ListVaultDocumentsResponse },
    errors: READ_ERRORS,
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/documents/{document_id}',
    operationId: 'getVaultDocument',
    summary: 'One filled document, with a fresh download link',
    description: 'Requires `vault:fill`, not `vault:read`: the link leads to plaintext values.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:fill'] },
    params: { path: VaultDocumentIdParams },
    refusesQuery: true,
    success: { status: 200, description: 'The document.', schema: FillDocumentResponse },
    errors: [401, 403, 404, 422, 500, 503],
    errorNotes: { 404: `Unknown or deleted document; ${OTHER_CLIENT} answers the same.` },
  }),
  defineOperation({
    method: 'get',
    path: '/api/vault/audit',
    operationId: 'getVaultAudit',
    summary: "The client's audit trail: every decryption of a value",
    description:
      'Newest first: when, which field, why (`fill` or `approve`), the key version that opened it, the ' +
      'document or extraction it served and the `X-Request-Id` of the API request that caused it. A key ' +
      'rotation re-wraps data keys without decrypting values and is not listed. Page with `cursor` = the ' +
      '`next_cursor` of the previous page.',
    tags: TAGS,
    auth: { kind: 'key', scopes: ['vault:read'] },
    params: { query: VaultAuditQuery },
    success: { status: 200, description: 'One page of the trail.', schema: VaultAuditResponse },
    errors: READ_ERRORS,
  }),
] as const;
