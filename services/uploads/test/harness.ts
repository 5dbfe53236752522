import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateUploadToken, uploadTokenHash } from '@svc/auth';
import { type Bus, createBus, type RpcServer, type ServiceClient, serveRpc, serviceClient } from '@svc/bus';
import { type CapabilityRecord, type PlatformCatalog, platformCatalog } from '@svc/contracts';
import { NotFoundError } from '@svc/errors';
import { type MemoryLogger, memoryLogger } from '@svc/log';
import { createCapabilityDirectory, type HttpServerHandle, listenHttp } from '@svc/service-kit';
import { createObjectStore, type ObjectStore } from '@svc/storage';
import {
  capabilityRecord,
  createTestDatabase,
  deleteKeysWithPrefix,
  type TestDatabase,
  testBusEncryptionKeys,
  testRedisUrl,
} from '@svc/testkit';
import { UPLOAD_SETTING_DEFAULTS, type UploadSettings, type UploadsDeps } from '../src/domain/settings';
import { createInternalApp } from '../src/handlers/internal-app';
import { uploadsHandlers } from '../src/handlers/rpc';

/** bytes: the fixture PDF capability's own limit (small, so a test can go over it cheaply). */
export const PDF_MAX_BYTES = 1_000_000;

/** What the fake registry publishes (the real manifests are the registry's code). */
export const RECORDS: Readonly<Record<string, CapabilityRecord>> = {
  crt: capabilityRecord('crt', 'supported'),
  whois: capabilityRecord('whois', 'describe_only', {
    files: {
      accepts_files: true,
      min_files: 1,
      max_files: 1,
      max_size_bytes: null,
      content_types: ['application/pdf'],
    },
  }),
  'pdf-extract-text': capabilityRecord('pdf-extract-text', 'supported', {
    files: {
      accepts_files: true,
      min_files: 1,
      max_files: 1,
      max_size_bytes: PDF_MAX_BYTES,
      content_types: ['application/pdf'],
    },
  }),
  'image-thumbnail': capabilityRecord('image-thumbnail', 'supported', {
    files: {
      accepts_files: true,
      min_files: 1,
      max_files: 3,
      max_size_bytes: 5_000_000,
      content_types: ['image/jpeg', 'image/png', 'image/webp'],
    },
  }),
  'csv-profile': capabilityRecord('csv-profile', 'supported', {
    files: {
      accepts_files: true,
      min_files: 1,
      max_files: 1,
      max_size_bytes: 5_000_000,
      content_types: ['text/csv'],
    },
  }),
};

export const DEFAULT_SETTINGS: UploadSettings = {
  ...UPLOAD_SETTING_DEFAULTS,
  linkSecret: randomBytes(32).toString('base64url'),
};

/**
 * The uploads service in this process, on real infrastructure: a fresh migrated database, a bus on
 * the test Redis under a fresh prefix (with a memory logger: tests read every line), an fs object
 * store in a temp directory, a fake `rpc.registry` that describes RECORDS (real Redis, real RPC), the
 * real `rpc.uploads` responder and the internal HTTP server on a free loopback port.
 */
export interface Harness {
  db: TestDatabase;
  bus: Bus<PlatformCatalog>;
  log: MemoryLogger;
  store: ObjectStore;
  storeRoot: string;
  deps: UploadsDeps;
  uploads: ServiceClient<PlatformCatalog, 'uploads'>;
  server: HttpServerHandle;
  /** Every upload token a session handed out (the log check greps for each). */
  tokens: string[];
  /** A session of `slug` for `clientId`; remembers the token. */
  session(
    clientId: string,
    slug: string,
    input: { filename: string; content_type: string; size_bytes: number },
  ): Promise<{ uploadId: string; token: string }>;
  /** A session of `slug` for `clientId` and its PUT of `bytes` (must answer 200): the upload id. */
  completeUpload(
    clientId: string,
    slug: string,
    file: { filename: string; contentType: string; bytes: Buffer },
  ): Promise<string>;
  close(): Promise<void>;
}

export async function startHarness(settings: Partial<UploadSettings> = {}): Promise<Harness> {
  const db = await createTestDatabase('uploads');
  const log = memoryLogger('uploads', 'debug');
  const prefix = `uploads${randomBytes(4).toString('hex')}`;
  const bus = createBus({
    catalog: platformCatalog,
    redisUrl: testRedisUrl(),
    prefix,
    logger: log.logger,
    encryptionKeys: testBusEncryptionKeys(),
  });
  const storeRoot = await mkdtemp(path.join(tmpdir(), 'uploads-store-'));
  const store = createObjectStore({ driver: 'fs', root: storeRoot });
  const registry: RpcServer = serveRpc(bus, 'registry', {
    search: async () => {
      throw new Error('not used');
    },
    describe: async ({ slug }) => {
      const capability = RECORDS[slug];
      if (capability === undefined) throw new NotFoundError(`unknown capability: ${slug}`);
      return { ok: true as const, capability, input_schema: {} };
    },
  });
  const registryClient = serviceClient(bus, 'registry', { timeoutMs: 5_000 });
  const deps: UploadsDeps = {
    prisma: db.prisma,
    store,
    directory: createCapabilityDirectory({
      fetch: async (slug) => (await registryClient.describe({ slug })).capability,
      ttlMs: 0,
    }),
    settings: { ...DEFAULT_SETTINGS, ...settings },
    logger: log.logger,
  };
  const rpc = serveRpc(bus, 'uploads', uploadsHandlers(deps));
  await Promise.all([registry.waitUntilReady(), rpc.waitUntilReady()]);
  const server = await listenHttp(createInternalApp(deps, log.logger), {
    port: 0,
    graceMs: 1_000,
    requestTimeoutMs: 60_000,
  });
  const uploads = serviceClient(bus, 'uploads', { timeoutMs: 10_000 });
  const tokens: string[] = [];

  const session: Harness['session'] = async (clientId, slug, input) => {
    // As the gateway does: the token is made here, only its hash goes to the service.
    const token = generateUploadToken();
    const created = await uploads.createSession({
      client_id: clientId,
      slug,
      input,
      client_type: 'api',
      token_sha256: uploadTokenHash(token).toString('hex'),
    });
    tokens.push(token);
    return { uploadId: created.upload.upload_id, token };
  };

  return {
    db,
    bus,
    log,
    store,
    storeRoot,
    deps,
    uploads,
    server,
    tokens,
    session,
    async completeUpload(clientId, slug, { filename, contentType, bytes }) {
      const { uploadId, token } = await session(clientId, slug, {
        filename,
        content_type: contentType,
        size_bytes: bytes.length,
      });
      const answer = await rawRequest(`${server.url}/internal/uploads/${uploadId}`, {
        method: 'PUT',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': contentType,
          'content-length': String(bytes.length),
        },
        chunks: [bytes],
      });
      if (answer.status !== 200) throw new Error(`PUT of ${filename} answered ${answer.status}`);
      return uploadId;
    },
    async close() {
      await server.close();
      await rpc.close();
      await registry.close();
      await bus.close();
      await deleteKeysWithPrefix(testRedisUrl(), prefix);
      await db.drop();
      await rm(storeRoot, { recursive: true, force: true });
    },
  };
}

export function newClientId(): string {
  return randomUUID();
}

/** Every file under the store's root (relative paths), temp files included. */
export async function storedFiles(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .sort();
}

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** The body parsed as JSON (throws when it is not). */
  json(): { ok: boolean; error?: string; upload?: Record<string, unknown> };
}

/**
 * A raw HTTP request to the internal server with full control over the body: `chunks` are written
 * one by one (chunked encoding unless a Content-Length header is given); `hangUp` destroys the
 * request after the chunks instead of ending it.
 */
export function rawRequest(
  url: string,
  options: {
    method: string;
    headers?: Record<string, string>;
    chunks?: readonly Buffer[];
    /** Resolved before the body is ended (lets a test act while the request is open). */
    beforeEnd?: () => Promise<void>;
    hangUp?: boolean;
  },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method, headers: options.headers ?? {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const body = Buffer.concat(parts);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
    });
    req.on('error', (err) => {
      if (options.hangUp)
        resolve({ status: 0, headers: {}, body: Buffer.alloc(0), json: () => ({ ok: false }) });
      else reject(err);
    });
    const write = async () => {
      for (const chunk of options.chunks ?? []) {
        req.write(chunk);
        await new Promise((done) => setTimeout(done, 20));
      }
      await options.beforeEnd?.();
      if (options.hangUp) req.destroy();
      else req.end();
    };
    write().catch(reject);
  });
}
