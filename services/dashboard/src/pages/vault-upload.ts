import { Readable } from 'node:stream';
import { generateUploadToken, uploadTokenHash } from '@svc/auth';
import {
  UploadResponse,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_UPLOAD_SLUG,
} from '@svc/contracts';
import { formatZodError, InternalError } from '@svc/errors';
import { callUploadsData, clientGoneSignal, readUpstreamJson, relayedError } from '@svc/http-kit';
import multer from 'multer';
import type { MultipartBody, PageContext, PageKit } from '../page-kit';
import { PageError } from '../page-kit';

/** Which file types a template may be, when the browser sends none better than octet-stream. */
const BY_EXTENSION: Readonly<Record<string, (typeof VAULT_DOCUMENT_CONTENT_TYPES)[number]>> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  markdown: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
};

const parseTemplate = multer({
  storage: multer.memoryStorage(),
  // Browsers send a UTF-8 file name without saying so (busboy's default would read it as latin1).
  defParamCharset: 'utf8',
  limits: { fileSize: VAULT_DOCUMENT_MAX_BYTES, files: 1, fields: 250, fieldSize: 64 * 1024 },
}).single('template');

/**
 * The fill form's multipart body, read by multer (memory, 10 MB) after the page kit's role check (no
 * bytes from a role without `vault`); its refusals are pages: 413 for a larger file, 400 otherwise.
 */
export const readTemplate: MultipartBody = (req, res) =>
  new Promise((resolve, reject) => {
    parseTemplate(req, res, (err: unknown) => {
      if (err === undefined || err === null) return resolve();
      if (err instanceof multer.MulterError && err.code === 'LIMIT_FILE_SIZE') {
        return reject(
          new PageError(413, `The template is larger than ${VAULT_DOCUMENT_MAX_BYTES / (1024 * 1024)} MB.`),
        );
      }
      if (err instanceof multer.MulterError) {
        return reject(new PageError(400, `The form could not be read (${err.code}).`));
      }
      reject(err);
    });
  });

/** The template's declared type: the browser's when it is one the vault takes, else by extension. */
export function templateContentType(file: {
  readonly mimetype: string;
  readonly originalname: string;
}): string {
  if ((VAULT_DOCUMENT_CONTENT_TYPES as readonly string[]).includes(file.mimetype)) return file.mimetype;
  const extension = /\.([A-Za-z0-9]+)$/.exec(file.originalname)?.[1]?.toLowerCase() ?? '';
  const type = BY_EXTENSION[extension];
  if (type === undefined) {
    throw new PageError(422, 'The template must be a PDF, text, Markdown or HTML file.');
  }
  return type;
}

/**
 * Stores the uploaded template as a `vault-document` upload, as an API client would: an upload
 * session (`uploads.createSession`, which checks the file against the slug's requirements), then the
 * PUT of its bytes to the uploads service's internal server with the session's one-time token. The
 * token is made here and only its SHA-256 crosses the bus (decisions U4). Answers the upload's id.
 */
export async function storeTemplate(
  kit: PageKit,
  ctx: PageContext,
  file: Express.Multer.File,
): Promise<string> {
  const contentType = templateContentType(file);
  const uploadToken = generateUploadToken();
  const { upload } = await kit.deps.uploads.createSession({
    client_id: ctx.account.clientId,
    slug: VAULT_DOCUMENT_UPLOAD_SLUG,
    input: { filename: file.originalname, content_type: contentType, size_bytes: file.size },
    client_type: 'dashboard',
    token_sha256: uploadTokenHash(uploadToken).toString('hex'),
  });
  const exchange = await callUploadsData(kit.deps.uploadsData, {
    method: 'PUT',
    path: `/internal/uploads/${upload.upload_id}`,
    headers: {
      authorization: `Bearer ${uploadToken}`,
      'content-type': contentType,
      'content-length': String(file.size),
      ...(ctx.res.locals.requestId === undefined ? {} : { 'x-request-id': ctx.res.locals.requestId }),
    },
    body: Readable.from([file.buffer]),
    signal: clientGoneSignal(ctx.res),
  });
  const status = exchange.response.statusCode ?? 500;
  const body = await readUpstreamJson(exchange.response);
  exchange.abort();
  if (status !== 200) throw relayedError(status, body);
  const stored = UploadResponse.safeParse(body);
  if (!stored.success) {
    throw new InternalError(
      `template upload ${upload.upload_id} does not match its contract: ${formatZodError(stored.error)}`,
    );
  }
  return stored.data.upload.upload_id;
}
