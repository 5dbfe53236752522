import type { RpcRequestInput } from '@svc/bus';
import {
  acceptsContentType,
  type CapabilityDefinition,
  type FileRequirements,
  filesOf,
  type ResolvedFile,
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
  definition: CapabilityDefinition;
  /** The input parsed with the capability's schema. */
  input: Record<string, unknown>;
  /** The run the uploads are marked used by; absent for a quote and for checks before the run exists. */
  runId?: string | undefined;
}

/**
 * The files a parsed input names (spec §4 rule 1: `upload_id` / `upload_ids`), resolved and checked
 * against the capability's published file requirements (decisions U6, "Quote/run with files"): the count within min_files..max_files (422), then the upload service's own checks, then
 * every content type among `content_types` (422). An input that names no file never reaches the
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
  for (const file of files) assertContentType(query.slug, query.requirements, file);
  return files;
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
