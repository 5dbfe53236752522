import { crt } from './crt/capability';
import { crtBatchPlan } from './crt-batch-plan/capability';
import { csvProfile } from './csv-profile/capability';
import { htmlToPdf } from './html-to-pdf/capability';
import { imageThumbnail } from './image-thumbnail/capability';
import { pdfExtractText } from './pdf-extract-text/capability';
import { piiRedact } from './pii-redact/capability';
import { whois } from './whois/capability';

/**
 * Every capability of this build, in the order the registry seeds them. Adding one is its folder
 * (`<slug>/capability.ts`, docs/adding-a-capability.md) and one line here: the manifests, the job
 * catalog, the slug → job map and the worker's handler map are derived from this list.
 */
export const CAPABILITIES = [
  crt,
  piiRedact,
  crtBatchPlan,
  htmlToPdf,
  whois,
  pdfExtractText,
  imageThumbnail,
  csvProfile,
] as const;

export type Capabilities = typeof CAPABILITIES;
/** The slugs of this build, as a type. */
export type CapabilitySlug = Capabilities[number]['slug'];
