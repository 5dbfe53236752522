import type { FileRequirements } from '@svc/contracts';
import type { z } from 'zod';

/**
 * A capability's file probe (decisions U6, K17): how its input files are inspected when their bytes
 * arrive, what facts that records, and which published content limits those facts are checked
 * against at quote and run start. The uploads service runs the probe of an upload's capability and
 * stores its facts; the orchestrator hands them to the capability's pricing (`units`) and to
 * `checkLimits`. Neither names a capability or a fact.
 */

/** A content limit a file's facts break, in the words of the 422 the orchestrator answers. */
export interface LimitBreach {
  /** What the file has, after `upload <id> `: `has 2001 pages`. */
  readonly found: string;
  /** What the capability takes at most, naming the published field: `2000 pages (file_requirements.max_pages)`. */
  readonly limit: string;
}

/** The upload a probe measures. */
export interface MeasuredUpload {
  /** Lowercased, without parameters: one of the probe's `contentTypes`. */
  readonly contentType: string;
  /** bytes: exactly what is stored (the uploads service enforces the declared size). */
  readonly sizeBytes: number;
}

/**
 * Measures one upload as its bytes stream to storage (facts that need every byte, such as a CSV's
 * widest record: never read back). The uploads service writes every chunk in order, then asks once.
 */
export interface FileMeter<Facts> {
  write(chunk: Buffer): void;
  /** The facts, once every byte was written. */
  facts(): Promise<Facts>;
}

/**
 * How a probe reads an upload: `stream`, a meter fed while the bytes arrive; `stored`, the stored
 * bytes read back whole once they are complete (a PDF's page count, an image's header: libraries
 * that take a buffer). Either rejects with a ValidationError (422: the upload is refused and its
 * bytes deleted) for content it must be able to read and cannot.
 */
export type FileMeasure<Facts> =
  | { readonly reads: 'stream'; meter(upload: MeasuredUpload): FileMeter<Facts> }
  | { readonly reads: 'stored'; measure(bytes: Buffer, upload: MeasuredUpload): Promise<Facts> };

/** What a probe's `measure` loads: `export default storedMeasure(async (bytes) => ({ pages: … }))`. */
export interface FileMeasureModule<Facts> {
  default: FileMeasure<Facts>;
}

/**
 * The schema of a probe's facts: an object whose every field is optional (the type requires it), as
 * an upload made before the probe existed (or of a type it does not read) has none of them.
 */
export type OptionalFacts = z.ZodObject<{ readonly [key: string]: z.ZodOptional }>;

/**
 * A probe as a capability declares it in `files.probe`. A file's facts are read back with `facts`
 * (what does not parse counts as none), so pricing and checks get them typed.
 */
export interface FileProbe<Facts extends OptionalFacts = OptionalFacts, Input = unknown> {
  /** The facts it records. */
  readonly facts: Facts;
  /** Content types it measures; an upload of another type gets no facts (`{}`). */
  readonly contentTypes: readonly string[];
  /** Loads the measuring code lazily (`() => import('./pdf-page-count')`): only the uploads service loads its libraries. */
  readonly measure: () => Promise<FileMeasureModule<z.input<Facts>>>;
  /**
   * The first published content limit (`requirements`, from describe) the facts break, for the
   * parsed input, or undefined. A fact the upload lacks checks nothing. A method, so a probe that
   * reads no input fits any capability's declaration (parameters compare bivariantly).
   */
  checkLimits?(facts: z.output<Facts>, requirements: FileRequirements, input: Input): LimitBreach | undefined;
}

/**
 * Declares a probe; the identity, for its types: `facts` types `checkLimits` (and the pricing of
 * the capabilities that use it), `Input` is the capability input `checkLimits` reads, if any.
 */
export function defineProbe<Facts extends OptionalFacts, Input = unknown>(
  probe: FileProbe<Facts, Input>,
): FileProbe<Facts, Input> {
  return probe;
}

/** A measure fed while the bytes stream in (`meter` makes one meter per upload). */
export function streamMeasure<Facts>(
  meter: (upload: MeasuredUpload) => FileMeter<Facts>,
): FileMeasure<Facts> {
  return { reads: 'stream', meter };
}

/** A measure of the stored bytes, read back whole once the upload is complete. */
export function storedMeasure<Facts>(
  measure: (bytes: Buffer, upload: MeasuredUpload) => Promise<Facts>,
): FileMeasure<Facts> {
  return { reads: 'stored', measure };
}
