import { createHash } from 'node:crypto';
import {
  ArtifactManifestResponse,
  type QuoteResponse,
  type RunStatusResponse,
  UploadResponse,
  UploadSessionResponse,
} from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { type FetchResult, type StackApi, startTestStack } from '@svc/testkit';
import { quoteAndRun, waitForRun } from '../quote-first/support';
import { withSuitePrisma } from '../support/shared-platform';

/**
 * Shared set-up of the file suites (services/gateway/test/files/*): the whole platform as child
 * processes — registry, wallet, orchestrator, uploads, worker (runtime node), gateway — on a private
 * database, bus prefix and object store (fs by default; `env` may switch it to S3 on s3rver).
 */
export interface FilesStack {
  stack: StackApi;
  prisma: PrismaClient;
  close(): Promise<void>;
}

export async function startFilesStack(env: Record<string, string> = {}): Promise<FilesStack> {
  const stack = await startTestStack({
    services: ['registry', 'wallet', 'orchestrator', 'uploads', 'worker', 'gateway'],
    env: { WORKER_RUNTIMES: 'node', ...env },
    // ms: six tsx processes compiling at once on a busy 2-core machine can take over a minute.
    startTimeoutMs: 120_000,
  });
  return withSuitePrisma(stack);
}

/** Every scope the file flow needs. */
export const FILE_SCOPES = ['uploads:write', 'capabilities:quote', 'capabilities:run', 'artifacts:read'];

export function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface FileSpec {
  filename: string;
  content_type: string;
  size_bytes: number;
}

export function postSession(
  stack: StackApi,
  apiKey: string,
  slug: string,
  input: FileSpec,
): Promise<FetchResult> {
  return stack.fetch(`/api/capabilities/${slug}/upload-session`, {
    method: 'POST',
    apiKey,
    json: { input },
  });
}

/** Creates a session for `bytes` and expects 201; the parsed session. */
export async function sessionOk(
  stack: StackApi,
  apiKey: string,
  slug: string,
  file: { filename: string; content_type: string },
  bytes: Uint8Array,
): Promise<UploadSessionResponse> {
  const answer = await postSession(stack, apiKey, slug, { ...file, size_bytes: bytes.byteLength });
  if (answer.status !== 201) throw new Error(`session ${slug}: ${answer.status} ${answer.text}`);
  return UploadSessionResponse.parse(answer.json);
}

export interface PutOptions {
  contentType?: string;
  /** The Authorization header value; default `Bearer <session token>`. */
  authorization?: string | null;
  /** A path instead of the session's upload_url (relative to the gateway). */
  url?: string;
  /** ms before the PUT is abandoned; default the test kit's per-request timeout (15 s). */
  timeoutMs?: number;
}

/** PUT of raw bytes to the session's upload URL with its token. */
export async function putBytes(
  stack: StackApi,
  session: UploadSessionResponse,
  body: Uint8Array,
  options: PutOptions = {},
): Promise<FetchResult> {
  const headers: Record<string, string> = {
    'content-type': options.contentType ?? session.upload.content_type,
  };
  const authorization =
    options.authorization === undefined ? `Bearer ${session.upload_token}` : options.authorization;
  if (authorization !== null) headers.authorization = authorization;
  const path = options.url ?? new URL(session.upload_url).pathname;
  const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  return stack.fetch(path, {
    method: 'PUT',
    headers,
    body: body as Uint8Array<ArrayBuffer>,
    ...(signal ? { signal } : {}),
  });
}

/** Session + PUT, expecting 200; the stored upload. */
export async function uploadOk(
  stack: StackApi,
  apiKey: string,
  slug: string,
  file: { filename: string; content_type: string },
  bytes: Uint8Array,
): Promise<UploadResponse['upload']> {
  const session = await sessionOk(stack, apiKey, slug, file, bytes);
  const answer = await putBytes(stack, session, bytes);
  if (answer.status !== 200) throw new Error(`PUT ${file.filename}: ${answer.status} ${answer.text}`);
  return UploadResponse.parse(answer.json).upload;
}

/**
 * Quote and run with a fresh key (the quote-first suites' `quoteAndRun`), then poll until the run
 * is final; throws unless it completed. The quote and the completed run.
 */
export async function runToCompletion(
  stack: StackApi,
  apiKey: string,
  slug: string,
  input: Record<string, unknown>,
): Promise<{ quote: QuoteResponse['quote']; run: RunStatusResponse }> {
  const started = await quoteAndRun(stack, apiKey, slug, input);
  if (started.quote === null) throw new Error(`run ${started.run_id} has no quote`);
  const runId = started.run_id;
  const run = await waitForRun(
    stack,
    apiKey,
    runId,
    (r) => ['completed', 'failed', 'cancelled'].includes(r.status),
    60_000,
  );
  if (run.status !== 'completed') throw new Error(`run ${runId} ${run.status}: ${JSON.stringify(run.error)}`);
  return { quote: started.quote, run };
}

export async function artifactsOk(
  stack: StackApi,
  apiKey: string,
  runId: string,
): Promise<ArtifactManifestResponse> {
  const answer = await stack.fetch(`/api/capability-runs/${runId}/artifacts`, { apiKey });
  if (answer.status !== 200) throw new Error(`artifacts of ${runId}: ${answer.status} ${answer.text}`);
  return ArtifactManifestResponse.parse(answer.json);
}

/** Follows a download link with an API key; the raw response (bytes read in full). */
export async function download(
  link: string,
  apiKey: string | null,
): Promise<{ status: number; headers: Headers; bytes: Buffer; text: string }> {
  const headers: Record<string, string> = {};
  if (apiKey !== null) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(link, { headers, signal: AbortSignal.timeout(15_000) });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, bytes, text: bytes.toString('utf8') };
}
