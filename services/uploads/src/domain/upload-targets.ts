import { capabilityDefinition, type FileProbe, pdfPageProbe } from '@svc/capabilities';
import {
  type FileRequirements,
  VAULT_DOCUMENT_CONTENT_TYPES,
  VAULT_DOCUMENT_MAX_BYTES,
  VAULT_DOCUMENT_UPLOAD_SLUG,
} from '@svc/contracts';
import type { CapabilityDirectory } from './capability-directory';
import { assertSessionAllowed } from './capability-gate';

/**
 * What an upload is for: the `slug` of its session. Almost always a capability of the registry,
 * whose describe answer says which files it takes; a few names are reserved targets the uploads
 * service knows itself (docs/decisions.md VL3, VG7), declared here and nowhere else. A reserved name
 * wins over a capability the registry might publish under the same slug.
 */
interface ReservedTarget {
  readonly requirements: FileRequirements;
  /**
   * false: an upload is deleted at its retention (UPLOAD_RETENTION_MS after it completed) even once
   * used. A run's input is kept because the run names it; a vault document holds personal data and
   * is not needed once the vault has read it.
   */
  readonly keptWhenUsed: boolean;
  /** How its files are inspected when they arrive (none: no facts). */
  readonly probe?: FileProbe;
}

const RESERVED_TARGETS: ReadonlyMap<string, ReservedTarget> = new Map([
  [
    // A document the vault extracts fields from, or a template it fills (PDF form or text).
    VAULT_DOCUMENT_UPLOAD_SLUG,
    {
      requirements: {
        accepts_files: true,
        min_files: 1,
        max_files: 1,
        max_size_bytes: VAULT_DOCUMENT_MAX_BYTES,
        content_types: [...VAULT_DOCUMENT_CONTENT_TYPES],
      },
      keptWhenUsed: false,
      // A PDF's pages, as the PDF capabilities count them: a PDF that does not parse is refused at upload.
      probe: pdfPageProbe,
    },
  ],
]);

/** The reserved targets whose uploads are deleted at their retention even when used (cleanup.ts). */
export const SLUGS_NOT_KEPT_WHEN_USED: readonly string[] = [...RESERVED_TARGETS]
  .filter(([, target]) => !target.keptWhenUsed)
  .map(([slug]) => slug);

/** Whether a used upload of `slug` is kept past its retention (a capability's always is). */
export function keptWhenUsed(slug: string): boolean {
  return RESERVED_TARGETS.get(slug)?.keptWhenUsed ?? true;
}

/**
 * The probe of `slug`'s files: a reserved target's own, or the one its capability declares
 * (`files.probe`: the capability's code, in this build); undefined when there is none.
 */
export function probeOf(slug: string): FileProbe | undefined {
  const reserved = RESERVED_TARGETS.get(slug);
  return reserved === undefined ? capabilityDefinition(slug)?.probe : reserved.probe;
}

/**
 * The files a session for `slug` may upload: a reserved target's own requirements, or the
 * capability's from describe (404 unknown, 503 registry down) once it may be run at all (409
 * otherwise, capability-gate.ts).
 */
export async function sessionRequirements(
  directory: CapabilityDirectory,
  slug: string,
): Promise<FileRequirements> {
  const reserved = RESERVED_TARGETS.get(slug);
  if (reserved !== undefined) return reserved.requirements;
  const record = await directory.describe(slug);
  assertSessionAllowed(slug, record);
  return record.file_requirements;
}

/** The files `slug` takes, for `uploads.resolveFiles` (the caller checked that it may run). */
export async function fileRequirementsOf(
  directory: CapabilityDirectory,
  slug: string,
): Promise<FileRequirements> {
  return RESERVED_TARGETS.get(slug)?.requirements ?? (await directory.describe(slug)).file_requirements;
}
