import { z } from 'zod';
import { CapabilitySlugParams } from '../capability-api';
import { UploadIdParams, UploadResponse, UploadSessionRequest, UploadSessionResponse } from '../uploads';
import { defineOperation } from './operation-types';

/** `Location` of a created upload session: where its upload is read (GET /api/capability-uploads/{upload_id}). */
export const UploadLocationHeader = z.object({
  Location: z.string().describe('The upload: /api/capability-uploads/{upload_id}.'),
});

/** Spec §4.6, §4.7 and rule 4: upload sessions, the raw-bytes PUT, and the upload as its owner reads it. */
export const uploadOperations = [
  defineOperation({
    method: 'post',
    path: '/api/capabilities/{slug}/upload-session',
    operationId: 'createUploadSession',
    rateLimit: 'transfers',
    summary: 'Open an upload session for one file of a capability',
    description:
      "Checks the file (`filename`, `content_type`, `size_bytes`) against the capability's " +
      '`file_requirements` from describe and the platform ceiling (256 MiB), and answers the `upload_url`, ' +
      'the `method` and `headers` the PUT must carry, and the `upload_token` that authorizes it. The token ' +
      'is shown once, works for this upload only and until `expires_at` (15 minutes). Then PUT the bytes, ' +
      'and pass `upload_id` (or `upload_ids`) in the input of quote and run (spec §4 rule 4). For a vault ' +
      'document or template, use the reserved slug `vault-document` (one PDF, text/plain, text/markdown or ' +
      'text/html file of at most 10 MiB; see the vault operations).',
    tags: ['uploads'],
    auth: { kind: 'key', scopes: ['uploads:write'] },
    params: { path: CapabilitySlugParams },
    body: { schema: UploadSessionRequest },
    success: {
      status: 201,
      description: 'The session. `Cache-Control: no-store`: the token is in it.',
      schema: UploadSessionResponse,
      headers: UploadLocationHeader,
    },
    errors: [400, 401, 403, 404, 409, 413, 415, 422, 500, 503],
    errorNotes: {
      404: 'Unknown capability.',
      409: 'The capability cannot be quoted or run (its execution mode is describe_only, missing or unknown).',
      422:
        'Invalid slug or body; the capability takes no files; a content type it does not accept (the message ' +
        'lists the accepted ones); a size over its limit or the platform ceiling; a filename extension that ' +
        'does not belong to the content type.',
    },
  }),
  defineOperation({
    method: 'put',
    path: '/api/capability-uploads/{upload_id}',
    operationId: 'putUploadBytes',
    rateLimit: 'transfers',
    summary: 'Upload the bytes of a session',
    description:
      'Send exactly the declared bytes as the raw body, with the `Content-Type` and `Content-Length` the ' +
      'session named (`headers` of the session). The bytes are streamed to storage, measured (SHA-256) and ' +
      'checked against the declared type by their content. The token is single-use: a complete upload ' +
      'refuses another PUT; a PUT that fails (wrong length, wrong content) may be repeated with the same ' +
      'token until the session expires.',
    tags: ['uploads'],
    auth: { kind: 'upload-token' },
    params: { path: UploadIdParams },
    body: {
      binary: ['application/octet-stream', '*/*'],
      description:
        'The raw bytes of the file, not JSON and not multipart. `Content-Type` must be the content_type ' +
        'declared in the session (any MIME type the capability accepts, e.g. application/pdf, image/png, ' +
        'text/csv); `Content-Length` must be its size_bytes.',
    },
    success: { status: 200, description: 'The stored upload, now complete.', schema: UploadResponse },
    errors: [401, 408, 409, 413, 415, 422, 500, 503],
    errorNotes: {
      401:
        'No upload token, an API key instead of the upload token, or a token that is not valid for this ' +
        'upload (the same answer for an unknown upload); `WWW-Authenticate: Bearer realm="uploads"`.',
      408:
        'The body did not arrive in time: not whole before the PUT deadline (just under ' +
        '`UPLOAD_PUT_TIMEOUT_MS`, 10 minutes by default), or no progress for `UPLOAD_IDLE_TIMEOUT_MS` (30 s ' +
        'by default); `error` says which, in seconds. Nothing is kept and the claim is released: PUT it ' +
        'again with the same token, at once, until the session expires.',
      409: 'The upload is already complete (its token was single-use), its session expired, or another PUT of it is in progress.',
      413: 'The body (or its Content-Length) is longer than the declared size_bytes.',
      415: 'Content-Type is not the content_type declared in the session.',
      422:
        'Malformed upload_id; a body (or Content-Length) shorter than the declared size_bytes; content that ' +
        'is not of the declared type; a PDF that cannot be read. Nothing is kept; the PUT may be repeated.',
      503: 'The uploads service is unavailable; retry the PUT with the same token (`Retry-After`).',
    },
  }),
  defineOperation({
    method: 'get',
    path: '/api/capability-uploads/{upload_id}',
    operationId: 'getUpload',
    summary: 'An upload: status, checksum and file facts',
    description:
      'The upload as its owner sees it: status (`pending`, `uploading`, `complete`, `expired`), SHA-256 ' +
      'and the facts read from the bytes (pages of a PDF, size of an image, the widest and the longest ' +
      'record of a CSV with each delimiter) once complete, and when it ' +
      "is deleted if no run uses it. Another client's upload answers the same 404 as one that does not exist.",
    tags: ['uploads'],
    auth: { kind: 'key', scopes: ['uploads:write'] },
    params: { path: UploadIdParams },
    success: { status: 200, description: 'The upload.', schema: UploadResponse },
    errors: [401, 403, 404, 422, 500, 503],
  }),
] as const;
