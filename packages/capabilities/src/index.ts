export type {
  Capability,
  CapabilityJob,
  NeverRunCapability,
  PricedFile,
  RunnableCapability,
  RunnableStatus,
} from './capability-types';
export { CAPABILITIES, type Capabilities, type CapabilitySlug } from './catalog';
export { CATEGORIES, type Category, isCategory } from './categories';
export {
  CRT_BATCH_MAX_ENTRIES,
  CrtBatchPlanInput,
  CrtBatchPlanResult,
  PlannedCrtRun,
  RejectedPlanEntry,
} from './crt-batch-plan/schema';
export {
  CSV_CONTENT_TYPES,
  CSV_DELIMITERS,
  CSV_DISTINCT_LIMIT,
  CSV_MAX_BYTES,
  CSV_MAX_COLUMNS,
  CSV_MAX_RECORD_CHARACTERS,
  CsvColumnProfile,
  CsvColumnType,
  CsvDelimiter,
  CsvProfileInput,
  CsvProfileResult,
} from './csv-profile/schema';
export { defineCapability, type FactsOf, type FileDeclaration, type HandlerInput } from './define';
export {
  HTML_MAX_BYTES,
  HtmlToPdfInput,
  HtmlToPdfResult,
  PDF_ARTIFACT,
  PDF_MAX_BYTES,
} from './html-to-pdf/schema';
export * from './image-thumbnail/schema';
export {
  CAPABILITY_JOBS,
  type CapabilityJobName,
  type CapabilityJobs,
  capabilityJobName,
  capabilityJobs,
  isRunnable,
  type JobCatalog,
  type JobName,
  type JobPayload,
  type JobPayloadInput,
  type JobResult,
  type JobResultInput,
  jobCatalog,
  type MessageCatalog,
  messageCatalog,
  RUNNABLE_CAPABILITIES,
  type RunnableSlug,
  runnableCapabilities,
} from './jobs';
export { type CapabilitiesEnv, capabilityEnv, settingsOf } from './kit/env';
export {
  type AnyCapabilityHandlerFactory,
  type CachePort,
  type CapabilityEnv,
  type CapabilityHandler,
  type CapabilityHandlerFactory,
  type CapabilityHandlerModule,
  type CapabilityPorts,
  type CapabilitySettings,
  defineHandler,
  type HandlerDeps,
  type NoSettings,
  type RunContext,
} from './kit/handler';
export { type CapabilityOutcome, RetryableRunError, RunCancelledError } from './kit/outcome';
export {
  defineProbe,
  type FileMeasure,
  type FileMeasureModule,
  type FileMeter,
  type FileProbe,
  type LimitBreach,
  type MeasuredUpload,
  type OptionalFacts,
  storedMeasure,
  streamMeasure,
} from './kit/probe';
export { imageSizeProbe } from './kit/probes/image-size';
export { pdfPageProbe } from './kit/probes/pdf-pages';
export { readBounded, TooLargeError } from './kit/read-bounded';
export { type ArtifactWriteOptions, artifactKey, createRunStorage, type RunStorage } from './kit/run-storage';
export { capabilityDefinition, filesOf, unitsOf } from './lookup';
export { MANIFESTS, manifestOf } from './manifests';
// The project's PDF reader, for the vault's document extraction and its tests.
export {
  openPdfReader,
  PdfReadError,
  type PdfReader,
  type PdfReaderOptions,
} from './pdf-extract-text/pdf-reader';
export {
  PDF_EXTRACT_MAX_BYTES,
  PDF_EXTRACT_MAX_PAGES,
  PDF_EXTRACT_RESULT_MAX_CHARS,
  PDF_TEXT_ARTIFACT,
  PdfExtractTextInput,
  PdfExtractTextResult,
  PdfPageText,
} from './pdf-extract-text/schema';
export {
  characterCount,
  PII_MAX_CHARACTERS,
  PII_TYPES,
  PiiFinding,
  PiiRedactInput,
  PiiRedactResult,
  PiiType,
} from './pii-redact/schema';
export { WhoisInput } from './whois/schema';
export { BROWSER_SLOTS, defaultSlots, IO_SLOTS, WORKLOADS, type Workload } from './workload';
