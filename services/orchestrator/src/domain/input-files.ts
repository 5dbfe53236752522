import { type Capability, filesOf } from '@svc/capabilities';
import {
  acceptsContentType,
  type FileRequirements,
  type ResolvedFile,
  type RpcRequestInput,
} from '@svc/contracts';
import { ValidationError } from '@svc/errors';

/** What the upload service is asked for (rpc `uploads.resolveFiles`, bus RPC catalog). */
export type ResolveFilesRequest = RpcRequestInput<'uploads', 'resolveFiles'>;

/**
 * The upload service's `resolveFiles`: the uploads the ids name, in the order asked, each checked
 * there (404 unknown or another client's, 409 not complete or expired, 422 made for another
 * capability); with `run_id` they are marked used by that run. 503 when the service is down.
 */
export type ResolveFiles = (request: ResolveFilesRequest) => Promise<ResolvedFile[]>;

/** A parsed input whose files are looked up (quote, run start). */
export interface InputFilesQuery {
  clientId: string;
  slug: string;
  requirements: FileRequirements;
  definition: Capability;
  /** The input parsed with the capability's schema. */
  input: Record<string, unknown>;
  /** The run the uploads are marked used by; absent for a quote and for checks before the run exists. */
  runId?: string | undefined;
}

/**
 * The files a parsed input names (spec §4 rule 1: `upload_id` / `upload_ids`), resolved and checked
 * against the capability's published file requirements (decisions U6, "Quote/run with files"): the count within min_files..max_files (422), then the upload service's own checks, then
 * every content type among `content_types` and every file within the published content limits (422). An input that names no file never reaches the
 * upload service (capabilities without files cost no extra call).
 *
 * The count is checked before the call, not after: it needs nothing from the upload service (the
 * answer has one file per id or is an error), and a request refused anyway must not mark uploads used.
 */
export async function resolveInputFiles(
  resolve: ResolveFiles,
  query: InputFilesQuery,
): Promise<ResolvedFile[]> {
  const ids = filesOf(query.definition, query.input);
  assertFileCount(query.slug, query.requirements, ids.length);
  if (ids.length === 0) return [];
  const files = await resolve({
    client_id: query.clientId,
    slug: query.slug,
    upload_ids: ids,
    ...(query.runId === undefined ? {} : { run_id: query.runId }),
  });
  // The uploads service answers one file per id in order; anything else is a bug there (500 here).
  if (files.length !== ids.length || files.some((file, i) => file.upload_id !== ids[i])) {
    throw new Error(`uploads.resolveFiles answered other files than the ${ids.length} asked for`);
  }
  for (const [index, file] of files.entries()) {
    assertContentType(query.slug, query.requirements, file);
    const field = fileField(query.input, file.upload_id, index);
    assertFileLimits(query.slug, query.requirements, file, field, query.definition, query.input);
  }
  return files;
}

/** The input field that names upload `uploadId` (spec §4 rule 1), for 422 messages. */
function fileField(input: Record<string, unknown>, uploadId: string, index: number): string {
  return input.upload_id === uploadId ? 'input.upload_id' : `input.upload_ids[${index}]`;
}

/**
 * 422 unless the file is within every content limit the capability publishes (spec §2.1: describe
 * states every limit and the quote checks it, so a quote that cannot run is never cleared; issue 13):
 * `max_size_bytes` here, then the limits the capability's probe checks against the facts the upload
 * service measured when the bytes arrived (`fileLimits` of its declaration, for this input). The
 * same check runs when the run starts, so it refuses the same way. A fact the upload service did
 * not record (another type of file, an upload older than the probe) checks nothing.
 */
export function assertFileLimits(
  slug: string,
  requirements: FileRequirements,
  file: ResolvedFile,
  field: string,
  definition: Pick<Capability, 'fileLimits'>,
  input: Record<string, unknown>,
): void {
  const refuse = (what: string, limit: string) =>
    new ValidationError(
      `${field}: upload ${file.upload_id} ${what}; capability ${slug} takes at most ${limit}`,
    );
  const { max_size_bytes: maxBytes } = requirements;
  if (maxBytes !== null && file.size_bytes > maxBytes) {
    throw refuse(`is ${file.size_bytes} bytes`, `${maxBytes} bytes (file_requirements.max_size_bytes)`);
  }
  const breach = definition.fileLimits?.(input, file.facts, requirements);
  if (breach !== undefined) throw refuse(breach.found, breach.limit);
}

/** 422 unless `count` files are within the capability's min_files..max_files. */
export function assertFileCount(slug: string, requirements: FileRequirements, count: number): void {
  const { min_files: min, max_files: max } = requirements;
  if (count < min || count > max) {
    throw new ValidationError(
      `input: capability ${slug} takes between ${min} and ${max} files, got ${count}`,
    );
  }
}

/** 422 unless the file's content type is one the capability takes. */
export function assertContentType(slug: string, requirements: FileRequirements, file: ResolvedFile): void {
  if (acceptsContentType(requirements.content_types, file.content_type)) return;
  const allowed = requirements.content_types.length === 0 ? 'none' : requirements.content_types.join(', ');
  throw new ValidationError(
    `input: upload ${file.upload_id} is ${file.content_type}; capability ${slug} takes ${allowed}`,
  );
}
