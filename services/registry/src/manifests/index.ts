import type { CapabilityManifest } from '@svc/contracts';
import { crtManifest } from './crt';
import { crtBatchPlanManifest } from './crt-batch-plan';
import { csvProfileManifest } from './csv-profile';
import { htmlToPdfManifest } from './html-to-pdf';
import { imageThumbnailManifest } from './image-thumbnail';
import { pdfExtractTextManifest } from './pdf-extract-text';
import { piiRedactManifest } from './pii-redact';
import { whoisManifest } from './whois';

/**
 * Every capability the registry publishes, kept in code and seeded into PostgreSQL on start
 * (src/domain/seed.ts). Add a capability: one file in this folder, one line here, and its
 * definition in packages/contracts/src/capabilities/definitions.ts (manifests.test.ts checks both
 * lists name the same slugs).
 */
export const MANIFESTS: readonly CapabilityManifest[] = [
  crtManifest,
  piiRedactManifest,
  crtBatchPlanManifest,
  htmlToPdfManifest,
  whoisManifest,
  pdfExtractTextManifest,
  imageThumbnailManifest,
  csvProfileManifest,
];

export { CATEGORIES, type Category, isCategory } from './categories';
export {
  crtBatchPlanManifest,
  crtManifest,
  csvProfileManifest,
  htmlToPdfManifest,
  imageThumbnailManifest,
  pdfExtractTextManifest,
  piiRedactManifest,
  whoisManifest,
};
