import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { stat, unlink } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type Artifact,
  ArtifactManifestResponse,
  acceptsContentType,
  BalanceResponse,
  blockedModeMessage,
  CancelRunResponse,
  CONTRACT_VERSION_HEADER,
  ContentType,
  CrtCompletedRunResponse,
  CrtReplayRunResponse,
  canQuoteAndRun,
  DescribeCapabilityResponse,
  type EffectiveRunStatus,
  ErrorResponse,
  effectiveRunStatus,
  Filename,
  IdempotencyKey,
  ListCapabilitiesResponse,
  ListRunsQuery,
  type ListRunsQueryInput,
  ListRunsResponse,
  PREFER_WAIT_MAX_SECONDS,
  type Quote,
  QuoteResponse,
  type RunRecord,
  RunStartResponse,
  type RunState,
  RunStatusResponse,
  type RunSummary,
  UPLOAD_MAX_BYTES,
  UploadResponse,
  UploadSessionResponse,
  UsageStatementResponse,
  WhoAmIResponse,
} from '@svc/contracts';
import { z } from 'zod';
import { cancelOutcome } from './cancel-outcome';
import {
  ArtifactIntegrityError,
  CapabilityNotRunnableError,
  DeadlineExceededError,
  errorForStatus,
  InvalidResponseError,
  NetworkError,
  RateLimitError,
  RunAbortedError,
  SvcError,
  UnknownRunStateError,
  UploadRejectedError,
  ValidationError,
} from './errors';
import { DEFAULT_RETRY, isRetryable, parseRetryAfter, type RetryOptions, retryDelay, sleep } from './retry';
import { isKnownRunState, isTerminalState } from './states';

export interface SvcClientOptions {
  /** The gateway's origin, e.g. `http://localhost:8080` (paths start with /api). */
  baseUrl: string;
  /** The API key (`Authorization: Bearer …`); search and describe work without one. */
  apiKey?: string;
  /** A fetch of your own (tests, proxies); default globalThis.fetch. */
  fetch?: typeof fetch;
  retry?: Partial<RetryOptions>;
  /** ms one HTTP request may take, body included (default 30 s); a timeout is a NetworkError, retried. */
  timeoutMs?: number;
  /** `client_type` of quotes, runs and upload sessions (default `sdk`). */
  clientType?: string;
}

export type ProgressEvent =
  | { phase: 'describe'; slug: string }
  | { phase: 'quote'; quote: Quote }
  | { phase: 'start'; runId: string; idempotencyKey: string; status: string }
  | { phase: 'status'; runId: string; status: RunState; run: RunStatusResponse };

export interface WaitOptions {
  /** Overall ms (default 10 min); when it passes the run is cancelled on the server and DeadlineExceededError thrown. */
  deadlineMs?: number;
  /** Aborting it cancels the run on the server and throws RunAbortedError. */
  signal?: AbortSignal;
  /** Called at every phase and at every change of the run's state. */
  onProgress?: (event: ProgressEvent) => void;
  /**
   * ms between two status reads when the gateway does not wait for the run itself (default 500).
   * Against a gateway that honours `Prefer: wait`, each read waits for the run to end: up to 5 s
   * while it is queued, 55 s once it runs.
   */
  pollIntervalMs?: number;
}

export interface RunOptions extends WaitOptions {
  /** The Idempotency-Key of this logical attempt (default: one made up, `sdk-<uuid>`). */
  idempotencyKey?: string;
}

/** A started run: the run id, the key it was started with (reuse it to retry) and the answer as it came. */
export interface StartedRun {
  runId: string;
  status: string;
  idempotentReplay: boolean;
  idempotencyKey: string;
  quote: Quote | null;
  /** The run's status record when the answer carried one (crt's completed answer does not). */
  run: RunRecord | null;
  /**
   * The parsed answer: RunStartResponse, or crt's CrtCompletedRunResponse / CrtReplayRunResponse, or
   * crt's 202 RunStatusResponse (the run not finished within the route's wait).
   */
  body: StartAnswer;
}

export interface UploadFile {
  filename: string;
  contentType: string;
  sizeBytes: number;
}

export interface DownloadResult {
  path: string;
  sizeBytes: number;
  sha256: string;
}

type Query = Record<string, string | number | undefined>;

interface RequestSpec {
  method: 'GET' | 'POST' | 'PUT';
  /** A path under baseUrl (`/api/…`) or an absolute URL the platform handed out. */
  url: string;
  query?: Query;
  json?: unknown;
  body?: () => NonNullable<RequestInit['body']>;
  headers?: Record<string, string>;
  /** Send the API key (default true). */
  auth?: boolean;
  signal?: AbortSignal | undefined;
  /** Retry network errors, 429, 502, 503, 504 (SK2). */
  retry: boolean;
  timeoutMs?: number;
}

/** ms a crt run may answer in (it waits up to 55 s for the run, CRT_RUN_WAIT_MS). */
const CRT_START_TIMEOUT_MS = 70_000;
/** ms an upload or a download may take, body included. */
const TRANSFER_TIMEOUT_MS = 10 * 60_000;
const DEFAULT_DEADLINE_MS = 10 * 60_000;
const DEFAULT_POLL_MS = 500;
/** s a status read waits (Prefer: wait) while the run is not yet running: its start shows within it. */
const QUEUED_READ_WAIT_S = 5;
/** ms the server-side cancel of a run given up on may take. */
const CANCEL_TIMEOUT_MS = 10_000;

/** Extensions → MIME type, for an upload whose type the caller did not give. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.pdf': 'application/pdf',
  '.csv': 'text/csv',
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.html': 'text/html',
  '.htm': 'text/html',
  '.json': 'application/json',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
};

/**
 * What POST …/run answers: RunStartResponse; for crt (§4.5) a 200 CrtCompletedRunResponse or
 * CrtReplayRunResponse, or a 202 RunStatusResponse when the run was still queued or running once the
 * route's wait (CRT_RUN_WAIT_MS, 55 s) was over.
 */
const StartAnswer = z.union([
  RunStartResponse,
  CrtCompletedRunResponse,
  CrtReplayRunResponse,
  RunStatusResponse,
]);
type StartAnswer = z.infer<typeof StartAnswer>;

/** The run's status record in a start answer, when it carries one (crt's completed answer does not). */
function runOfStartAnswer(body: StartAnswer): RunRecord | null {
  if ('run' in body) return body.run ?? null;
  if ('attempts' in body) {
    const { ok: _ok, ...run } = body;
    return run;
  }
  return null;
}

/** A property of a JSON value, or undefined. */
function prop(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** Throws UnknownRunStateError when a run answer names a state outside the contract (before its schema would). */
/** A listed run in a state outside RUN_STATES is UnknownRunStateError, as for a single run. */
function checkListedRunStates(raw: unknown): void {
  const runs = prop(raw, 'runs');
  if (Array.isArray(runs)) for (const run of runs) checkRunState(run);
}

function checkRunState(raw: unknown): void {
  const status = prop(raw, 'status');
  if (!isKnownRunState(status)) throw new UnknownRunStateError(String(prop(raw, 'run_id') ?? '?'), status);
}

/**
 * Spec §2.1 on a raw describe answer: `machine_run_status` with the rules (legacy `runnable` is
 * supported; missing or unknown is describe_only); the server's own `effective_status` can only make
 * it stricter. Read from the raw body so a missing value is a refusal, not a schema error.
 */
export function runStatusOfDescribe(raw: unknown): { effective: EffectiveRunStatus; rawStatus: string } {
  const execution = prop(prop(raw, 'capability'), 'execution');
  const value = prop(execution, 'machine_run_status');
  const derived = effectiveRunStatus(value);
  const effective = prop(execution, 'effective_status') === 'describe_only' ? 'describe_only' : derived;
  return { effective, rawStatus: typeof value === 'string' ? value : '' };
}

/** A new Idempotency-Key for one logical attempt. */
export function newIdempotencyKey(): string {
  return `sdk-${randomUUID()}`;
}

export class SvcClient {
  readonly baseUrl: string;
  private readonly apiKey: string | undefined;
  private readonly fetchImpl: typeof fetch;
  private readonly retryOptions: RetryOptions;
  private readonly timeoutMs: number;
  private readonly clientType: string;
  /** For tests of the retry policy: the random source of the jitter. */
  random: () => number = Math.random;

  constructor(options: SvcClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.retryOptions = { ...DEFAULT_RETRY, ...options.retry };
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.clientType = options.clientType ?? 'sdk';
  }

  // --- Catalog -------------------------------------------------------------------------------------

  /** GET /api/capabilities (spec §4.1). */
  search(query: { q?: string; category?: string; limit?: number } = {}): Promise<ListCapabilitiesResponse> {
    return this.json(
      { method: 'GET', url: '/api/capabilities', query, retry: true },
      ListCapabilitiesResponse,
    );
  }

  /** GET /api/capabilities/{slug} (spec §4.2). */
  describe(slug: string, signal?: AbortSignal): Promise<DescribeCapabilityResponse> {
    return this.json(
      { method: 'GET', url: this.slugPath(slug), retry: true, signal },
      DescribeCapabilityResponse,
    );
  }

  /** Throws CapabilityNotRunnableError unless the described capability may be quoted and run (spec §2.1). */
  assertRunnable(described: unknown): EffectiveRunStatus {
    const slug = String(prop(prop(described, 'capability'), 'slug') ?? '?');
    const { effective, rawStatus } = runStatusOfDescribe(described);
    if (!canQuoteAndRun(effective)) {
      throw new CapabilityNotRunnableError(blockedModeMessage(slug, rawStatus), slug, rawStatus);
    }
    return effective;
  }

  /** Describe, refusing a capability that may not be quoted or run BEFORE the answer's schema is applied. */
  async describeRunnable(slug: string, signal?: AbortSignal): Promise<DescribeCapabilityResponse> {
    return this.json(
      { method: 'GET', url: this.slugPath(slug), retry: true, signal },
      DescribeCapabilityResponse,
      (raw) => {
        const { effective, rawStatus } = runStatusOfDescribe(raw);
        if (!canQuoteAndRun(effective)) {
          throw new CapabilityNotRunnableError(blockedModeMessage(slug, rawStatus), slug, rawStatus);
        }
      },
    );
  }

  // --- Quote and run -------------------------------------------------------------------------------

  /**
   * POST /api/capabilities/{slug}/quote (spec §4.3), after a describe that refuses describe_only
   * (skip it only when you just described). Retried like a read (SK3): a second quote is harmless.
   */
  async quote(
    slug: string,
    input: Record<string, unknown>,
    options: { signal?: AbortSignal; skipDescribe?: boolean } = {},
  ): Promise<Quote> {
    if (options.skipDescribe !== true) await this.describeRunnable(slug, options.signal);
    const answer = await this.json(
      {
        method: 'POST',
        url: `${this.slugPath(slug)}/quote`,
        json: { input, client_type: this.clientType },
        retry: true,
        signal: options.signal,
      },
      QuoteResponse,
    );
    return answer.quote;
  }

  /**
   * POST /api/capabilities/{slug}/run (spec §4.4; crt §4.5) with one Idempotency-Key, made up once
   * unless given, and sent unchanged on every retry of this call (SK1).
   */
  async startRun(
    slug: string,
    input: Record<string, unknown>,
    options: { quoteId?: string; idempotencyKey?: string; signal?: AbortSignal } = {},
  ): Promise<StartedRun> {
    const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
    if (!IdempotencyKey.safeParse(idempotencyKey).success) {
      throw new ValidationError(0, 'idempotencyKey must be 8-190 characters of A-Z a-z 0-9 . _ : -');
    }
    const body = await this.json(
      {
        method: 'POST',
        url: `${this.slugPath(slug)}/run`,
        json: {
          input,
          ...(options.quoteId === undefined ? {} : { quote_id: options.quoteId }),
          client_type: this.clientType,
        },
        headers: { 'Idempotency-Key': idempotencyKey },
        retry: true,
        signal: options.signal,
        timeoutMs: slug === 'crt' ? Math.max(this.timeoutMs, CRT_START_TIMEOUT_MS) : this.timeoutMs,
      },
      StartAnswer,
      checkRunState,
    );
    return {
      runId: body.run_id,
      status: body.status,
      idempotentReplay: 'idempotent_replay' in body ? body.idempotent_replay : false,
      idempotencyKey,
      quote: 'quote' in body ? (body.quote ?? null) : null,
      run: runOfStartAnswer(body),
      body,
    };
  }

  /** GET /api/capability-runs/{run_id} (spec §4.8); a state outside the contract is UnknownRunStateError. */
  getRun(runId: string, signal?: AbortSignal): Promise<RunStatusResponse> {
    return this.json(
      { method: 'GET', url: this.runPath(runId), retry: true, signal },
      RunStatusResponse,
      checkRunState,
    );
  }

  /** POST /api/capability-runs/{run_id}/cancel (spec §4.10). A finished run is ConflictError (409). */
  cancelRun(runId: string, signal?: AbortSignal): Promise<RunStatusResponse> {
    return this.json(
      {
        method: 'POST',
        url: `${this.runPath(runId)}/cancel`,
        retry: true,
        signal,
        timeoutMs: CANCEL_TIMEOUT_MS,
      },
      CancelRunResponse,
      checkRunState,
    );
  }

  /**
   * GET /api/capability-runs (issue 18): one page of the key's client's runs, newest first, filtered
   * by `state`, `capability` and creation time (`created_from` inclusive, `created_to` exclusive);
   * `cursor` is the `next_cursor` of the previous page (same filters). The query is checked against
   * the contract's ListRunsQuery before any request (ValidationError, status 0).
   */
  async listRuns(query: ListRunsQueryInput = {}, signal?: AbortSignal): Promise<ListRunsResponse> {
    const parsed = ListRunsQuery.safeParse(query);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ValidationError(0, `listRuns: ${issue?.path.join('.') || 'query'}: ${issue?.message}`);
    }
    return this.json(
      { method: 'GET', url: '/api/capability-runs', query: { ...parsed.data }, retry: true, signal },
      ListRunsResponse,
      checkListedRunStates,
    );
  }

  /**
   * Every run matching `query`, page after page (`for await (const run of client.iterateRuns({state:
   * 'failed'}))`): follows `next_cursor` until the last page; `limit` is the page size. Runs recorded
   * while iterating do not shift the pages (keyset pagination) and each run comes once.
   */
  async *iterateRuns(
    query: Omit<ListRunsQueryInput, 'cursor'> & { cursor?: string } = {},
    signal?: AbortSignal,
  ): AsyncGenerator<RunSummary, void, undefined> {
    let cursor = query.cursor;
    for (;;) {
      const page = await this.listRuns({ ...query, ...(cursor === undefined ? {} : { cursor }) }, signal);
      yield* page.runs;
      if (page.next_cursor === null) return;
      if (page.next_cursor === cursor) {
        throw new InvalidResponseError(200, `GET /api/capability-runs: next_cursor repeats the cursor sent`);
      }
      cursor = page.next_cursor;
    }
  }

  /**
   * Polls the run until a terminal state of the contract. Past the deadline, or once `signal`
   * aborts, the run is cancelled on the server and DeadlineExceededError / RunAbortedError thrown.
   */
  waitForRun(runId: string, options: WaitOptions = {}): Promise<RunStatusResponse> {
    return this.withDeadline(options, async (signal, giveUp) => {
      try {
        return await this.poll(runId, signal, options);
      } catch (error) {
        throw await giveUp(error, runId);
      }
    });
  }

  /**
   * The whole flow (spec §2.1, §4 rules 2-3): describe (refusing describe_only, missing or unknown
   * modes before any quote), quote, run with one Idempotency-Key, then wait for a terminal state.
   * Resolves with the terminal status record: completed, failed or cancelled (check `status`).
   */
  run(slug: string, input: Record<string, unknown>, options: RunOptions = {}): Promise<RunStatusResponse> {
    const idempotencyKey = options.idempotencyKey ?? newIdempotencyKey();
    return this.withDeadline(options, async (signal, giveUp) => {
      let runId: string | undefined;
      try {
        options.onProgress?.({ phase: 'describe', slug });
        await this.describeRunnable(slug, signal);
        // Spec §4 rule 3: the quote immediately before the run.
        const quote = await this.quote(slug, input, { signal, skipDescribe: true });
        options.onProgress?.({ phase: 'quote', quote });
        // Not cut off by the deadline (SK5): once sent, the answer names the run to cancel.
        const started = await this.startRun(slug, input, { quoteId: quote.quote_id, idempotencyKey });
        runId = started.runId;
        options.onProgress?.({ phase: 'start', runId, idempotencyKey, status: started.status });
        return await this.poll(runId, signal, options);
      } catch (error) {
        throw await giveUp(error, runId);
      }
    });
  }

  // --- Artifacts -----------------------------------------------------------------------------------

  /** GET /api/capability-runs/{run_id}/artifacts (spec §4.9). */
  artifacts(runId: string): Promise<ArtifactManifestResponse> {
    return this.json(
      { method: 'GET', url: `${this.runPath(runId)}/artifacts`, retry: true },
      ArtifactManifestResponse,
      checkRunState,
    );
  }

  /**
   * Streams an artifact to `destPath` and checks its size and SHA-256 against the manifest entry; on
   * a mismatch (or a broken transfer) the partial file is deleted and ArtifactIntegrityError
   * (NetworkError) thrown.
   */
  async downloadArtifact(
    artifact: Artifact,
    destPath: string,
    options: { signal?: AbortSignal } = {},
  ): Promise<DownloadResult> {
    return this.exchange(
      {
        method: 'GET',
        url: artifact.download_url,
        retry: true,
        signal: options.signal,
        timeoutMs: TRANSFER_TIMEOUT_MS,
      },
      async (response) => {
        if (response.body === null)
          throw new InvalidResponseError(response.status, 'the download had no body');
        const hash = createHash('sha256');
        let size = 0;
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            size += chunk.length;
            hash.update(chunk);
            // More bytes than the manifest says: stop now rather than fill the disk.
            if (size > artifact.size_bytes) callback(new Error('longer than the manifest says'));
            else callback(null, chunk);
          },
        });
        try {
          await pipeline(
            Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
            counter,
            createWriteStream(destPath),
          );
        } catch (error) {
          await unlink(destPath).catch(() => undefined);
          if (size > artifact.size_bytes) throw this.integrity(artifact, size, hash.digest('hex'));
          // The local file, not the network: not worth a retry.
          const syscall = (error as NodeJS.ErrnoException).syscall;
          if (syscall !== undefined && ['open', 'write', 'close', 'mkdir'].includes(syscall)) {
            throw new SvcError(
              0,
              `cannot write ${destPath}: ${(error as NodeJS.ErrnoException).code ?? syscall}`,
              {
                cause: error,
              },
            );
          }
          throw error;
        }
        const sha256 = hash.digest('hex');
        if (size !== artifact.size_bytes || sha256 !== artifact.sha256) {
          await unlink(destPath).catch(() => undefined);
          throw this.integrity(artifact, size, sha256);
        }
        return { path: destPath, sizeBytes: size, sha256 };
      },
    );
  }

  // --- Uploads -------------------------------------------------------------------------------------

  /** POST /api/capabilities/{slug}/upload-session (spec §4.6): the raw call; `upload` validates first. */
  createUploadSession(slug: string, file: UploadFile, signal?: AbortSignal): Promise<UploadSessionResponse> {
    return this.json(
      {
        method: 'POST',
        url: `${this.slugPath(slug)}/upload-session`,
        json: {
          input: { filename: file.filename, content_type: file.contentType, size_bytes: file.sizeBytes },
          client_type: this.clientType,
        },
        retry: true,
        signal,
      },
      UploadSessionResponse,
    );
  }

  /**
   * Uploads a file for a capability (spec §4 rule 4): describe, check the file's name, MIME type
   * and size against `file_requirements` before any byte is sent (UploadRejectedError), open a
   * session, then stream the file in one PUT (not retried, SK4). Pass the `upload.upload_id` as input.
   */
  async upload(
    slug: string,
    filePath: string,
    options: { filename?: string; contentType?: string; signal?: AbortSignal } = {},
  ): Promise<UploadResponse> {
    const file = await this.checkUpload(slug, filePath, options);
    const session = await this.createUploadSession(slug, file, options.signal);
    return this.json(
      {
        method: 'PUT',
        url: session.upload_url,
        auth: false,
        headers: {
          Authorization: `Bearer ${session.upload_token}`,
          'Content-Type': file.contentType,
          'Content-Length': String(file.sizeBytes),
        },
        body: () => Readable.toWeb(createReadStream(filePath)) as unknown as NonNullable<RequestInit['body']>,
        retry: false,
        signal: options.signal,
        timeoutMs: TRANSFER_TIMEOUT_MS,
      },
      UploadResponse,
    );
  }

  /** The client-side checks of `upload`, exposed for callers that want them without uploading. */
  async checkUpload(
    slug: string,
    filePath: string,
    options: { filename?: string; contentType?: string; signal?: AbortSignal } = {},
  ): Promise<UploadFile> {
    let sizeBytes: number;
    try {
      const info = await stat(filePath);
      if (!info.isFile()) throw new UploadRejectedError(`${filePath} is not a file`);
      sizeBytes = info.size;
    } catch (error) {
      if (error instanceof SvcError) throw error;
      throw new UploadRejectedError(
        `cannot read ${filePath}: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      );
    }
    const filename = options.filename ?? basename(filePath);
    if (!Filename.safeParse(filename).success) {
      throw new UploadRejectedError(
        'filename must be 1-255 characters without path separators or control characters',
      );
    }
    const contentType = (
      options.contentType ??
      CONTENT_TYPES[extname(filename).toLowerCase()] ??
      ''
    ).toLowerCase();
    if (contentType === '') {
      throw new UploadRejectedError(
        `the MIME type of ${filename} is not known from its extension: pass contentType`,
      );
    }
    if (!ContentType.safeParse(contentType).success) {
      throw new UploadRejectedError('contentType must be a MIME type such as application/pdf');
    }
    const described = await this.describeRunnable(slug, options.signal);
    const requirements = described.capability.file_requirements;
    if (!requirements.accepts_files) throw new UploadRejectedError(`capability ${slug} takes no files`);
    if (!acceptsContentType(requirements.content_types, contentType)) {
      throw new UploadRejectedError(
        `capability ${slug} does not accept ${contentType} (it takes ${requirements.content_types.join(', ')})`,
      );
    }
    if (sizeBytes < 1) throw new UploadRejectedError(`${filename} is empty`);
    const limit = Math.min(requirements.max_size_bytes ?? UPLOAD_MAX_BYTES, UPLOAD_MAX_BYTES);
    if (sizeBytes > limit) {
      throw new UploadRejectedError(
        `${filename} is ${sizeBytes} bytes; capability ${slug} takes at most ${limit}`,
      );
    }
    return { filename, contentType, sizeBytes };
  }

  // --- Account -------------------------------------------------------------------------------------

  /** GET /api/account/whoami: the client, key id and scopes of the API key (any valid key; ours, not the spec's). */
  whoami(signal?: AbortSignal): Promise<WhoAmIResponse> {
    return this.json({ method: 'GET', url: '/api/account/whoami', retry: true, signal }, WhoAmIResponse);
  }

  /** GET /api/account/balance (spec §4.12). */
  balance(): Promise<BalanceResponse> {
    return this.json({ method: 'GET', url: '/api/account/balance', retry: true }, BalanceResponse);
  }

  /** GET /api/account/usage-statement (spec §4.13). */
  usageStatement(
    query: { from?: string; to?: string; slug?: string; limit?: number } = {},
  ): Promise<UsageStatementResponse> {
    return this.json(
      { method: 'GET', url: '/api/account/usage-statement', query, retry: true },
      UsageStatementResponse,
    );
  }

  // --- Internals -----------------------------------------------------------------------------------

  private slugPath(slug: string): string {
    return `/api/capabilities/${encodeURIComponent(slug)}`;
  }

  private runPath(runId: string): string {
    return `/api/capability-runs/${encodeURIComponent(runId)}`;
  }

  private integrity(artifact: Artifact, size: number, sha256: string): ArtifactIntegrityError {
    return new ArtifactIntegrityError(
      `artifact ${artifact.name} failed its check (expected ${artifact.size_bytes} bytes, sha256 ${artifact.sha256}; got ${size} bytes, ${sha256}): the file was deleted`,
      { sizeBytes: artifact.size_bytes, sha256: artifact.sha256 },
      { sizeBytes: size, sha256 },
    );
  }

  /**
   * Reads the run until terminal; emits each state change. Each read asks the gateway to wait for the
   * run to end (`Prefer: wait`, issue 25), so a run that ends is known at once instead of at the next
   * poll. The wait ends only at the end of the run, so a run not yet running is read every
   * QUEUED_READ_WAIT_S (its start shows within that), a running one every 55 s (one request per 55 s
   * of a long run; a retry shows at most that late). A gateway that does not say `Preference-Applied`
   * answered at once: the next read comes after `pollIntervalMs`, as before.
   */
  private async poll(runId: string, signal: AbortSignal, options: WaitOptions): Promise<RunStatusResponse> {
    let last: string | undefined;
    for (;;) {
      const waitSeconds = last === 'running' ? PREFER_WAIT_MAX_SECONDS : QUEUED_READ_WAIT_S;
      const { run, waited } = await this.waitedRun(runId, signal, waitSeconds);
      if (run.status !== last) {
        last = run.status;
        options.onProgress?.({ phase: 'status', runId, status: run.status, run });
      }
      if (isTerminalState(run.status)) return run;
      if (!waited) await sleep(options.pollIntervalMs ?? DEFAULT_POLL_MS, signal);
    }
  }

  /** GET the run with `Prefer: wait=<seconds>`; `waited`: the gateway says it honoured the wait. */
  private waitedRun(
    runId: string,
    signal: AbortSignal,
    seconds: number,
  ): Promise<{ run: RunStatusResponse; waited: boolean }> {
    const spec: RequestSpec = {
      method: 'GET',
      url: this.runPath(runId),
      headers: { Prefer: `wait=${seconds}` },
      retry: true,
      signal,
      timeoutMs: seconds * 1_000 + this.timeoutMs,
    };
    return this.exchange(spec, async (response) => ({
      run: await parseAnswer(spec, response, RunStatusResponse, checkRunState),
      waited: response.headers.get('preference-applied') !== null,
    }));
  }

  /**
   * Runs `body` under the overall deadline and the caller's signal. `giveUp(error, runId)` turns an
   * abort into DeadlineExceededError / RunAbortedError after cancelling `runId` on the server, and
   * passes any other error through.
   */
  private async withDeadline<T>(
    options: WaitOptions,
    body: (
      signal: AbortSignal,
      giveUp: (error: unknown, runId: string | undefined) => Promise<unknown>,
    ) => Promise<T>,
  ): Promise<T> {
    const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(new Error('deadline')), deadlineMs);
    const signal = options.signal ? AbortSignal.any([options.signal, deadline.signal]) : deadline.signal;
    const giveUp = async (error: unknown, runId: string | undefined): Promise<unknown> => {
      if (!signal.aborted) return error;
      let cancelError: unknown;
      let cancelAnswer: RunStatusResponse | undefined;
      let what = 'before a run was started';
      if (runId !== undefined) {
        let failure: unknown;
        try {
          cancelAnswer = await this.cancelRun(runId);
        } catch (caught) {
          failure = caught;
          // 409: it finished meanwhile; nothing to cancel.
          if (!(caught instanceof SvcError && caught.status === 409)) cancelError = caught;
        }
        what = cancelOutcome(runId, cancelAnswer, failure);
      }
      return deadline.signal.aborted
        ? new DeadlineExceededError(
            `no terminal state within ${deadlineMs} ms; ${what}`,
            runId,
            cancelError,
            cancelAnswer,
          )
        : new RunAbortedError(`aborted by the caller; ${what}`, runId, cancelError, cancelAnswer);
    };
    try {
      return await body(signal, giveUp);
    } finally {
      clearTimeout(timer);
    }
  }

  /** One request with the retry policy; `consume` reads a 2xx answer (inside the request's timeout). */
  private async exchange<T>(spec: RequestSpec, consume: (response: Response) => Promise<T>): Promise<T> {
    const attempts = spec.retry ? Math.max(1, this.retryOptions.attempts) : 1;
    for (let attempt = 0; ; attempt++) {
      let retryAfterMs: number | undefined;
      try {
        return await this.once(spec, consume, (ms) => {
          retryAfterMs = ms;
        });
      } catch (error) {
        if (spec.signal?.aborted) throw error;
        if (!isRetryable(error) || attempt + 1 >= attempts) throw error;
        const delay = retryDelay(attempt, this.retryOptions, retryAfterMs, this.random);
        if (delay === undefined) throw error;
        await sleep(delay, spec.signal);
      }
    }
  }

  private async once<T>(
    spec: RequestSpec,
    consume: (response: Response) => Promise<T>,
    onRetryAfter: (ms: number | undefined) => void,
  ): Promise<T> {
    const timeoutMs = spec.timeoutMs ?? this.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = spec.signal ? AbortSignal.any([spec.signal, timeout]) : timeout;
    const url = new URL(/^https?:\/\//.test(spec.url) ? spec.url : `${this.baseUrl}${spec.url}`);
    for (const [name, value] of Object.entries(spec.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { Accept: 'application/json', ...spec.headers };
    // The API key goes to the gateway's origin only (SK9), never to a link pointing elsewhere.
    if (spec.auth !== false && this.apiKey !== undefined && url.origin === new URL(this.baseUrl).origin) {
      headers.Authorization = `Bearer ${this.apiKey}`;
    }
    let body: RequestInit['body'] | undefined;
    if (spec.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(spec.json);
    } else if (spec.body) {
      body = spec.body();
    }
    const init: RequestInit & { duplex?: 'half' } = { method: spec.method, headers, signal };
    if (body !== undefined) init.body = body;
    if (body !== undefined && typeof body !== 'string') init.duplex = 'half';
    try {
      const response = await this.fetchImpl(url, init);
      if (!response.ok) {
        const text = await response.text();
        const parsed = ErrorResponse.safeParse(safeJson(text));
        const message = parsed.success
          ? parsed.data.error
          : `HTTP ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`;
        const error = errorForStatus(
          response.status,
          message,
          response.headers.get('x-request-id') ?? undefined,
        );
        const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
        if (error instanceof RateLimitError) error.retryAfterMs = retryAfterMs;
        onRetryAfter(retryAfterMs);
        throw error;
      }
      return await consume(response);
    } catch (error) {
      if (error instanceof SvcError) throw error;
      if (spec.signal?.aborted) throw spec.signal.reason ?? error;
      if (timeout.aborted)
        throw new NetworkError(`${spec.method} ${url.pathname}: no answer within ${timeoutMs} ms`, error);
      throw new NetworkError(`${spec.method} ${url.pathname}: ${describeFailure(error)}`, error);
    }
  }

  /** One request whose 2xx body is JSON checked by `schema` (after `precheck` on the raw value). */
  private json<S extends z.ZodType>(
    spec: RequestSpec,
    schema: S,
    precheck?: (raw: unknown) => void,
  ): Promise<z.infer<S>> {
    return this.exchange(spec, (response) => parseAnswer(spec, response, schema, precheck));
  }
}

/** The JSON answer to `spec`, checked against `schema` (InvalidResponseError when it is not JSON or does not match). */
async function parseAnswer<S extends z.ZodType>(
  spec: RequestSpec,
  response: Response,
  schema: S,
  precheck?: (raw: unknown) => void,
): Promise<z.infer<S>> {
  const text = await response.text();
  const raw = safeJson(text);
  if (raw === undefined) {
    throw new InvalidResponseError(response.status, `${spec.method} ${spec.url}: the answer is not JSON`);
  }
  precheck?.(raw);
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issue.path.join('.') || '(body)'}: ${issue.message}` : 'invalid';
    throw new InvalidResponseError(
      response.status,
      `${spec.method} ${spec.url}: the answer does not match the contract (${where}; contract ${response.headers.get(CONTRACT_VERSION_HEADER) ?? 'unknown'})`,
    );
  }
  return parsed.data;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describeFailure(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
