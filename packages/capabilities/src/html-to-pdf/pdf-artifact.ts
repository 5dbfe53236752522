import { Readable } from 'node:stream';
import type { CapabilityOutcome } from '../kit/outcome';
import type { RunStorage } from '../kit/run-storage';
import type { RenderOutcome } from './render-pdf';
import { type HtmlToPdfResult, PDF_ARTIFACT, PDF_MAX_BYTES } from './schema';

/**
 * The end of an html-to-pdf run (version 2.0.0): the rendered PDF becomes the run's artifact
 * `document.pdf` (streamed from the render's buffer through putMeasured) and the result names it,
 * with the size and SHA-256 measured as it was stored — the same figures the artifact manifest
 * lists. Storage faults throw (the attempt is retried; writing the name again replaces the object).
 */
export async function storeRenderedPdf(
  rendered: Extract<RenderOutcome, { kind: 'rendered' }>,
  storage: RunStorage,
): Promise<CapabilityOutcome<HtmlToPdfResult>> {
  const artifact = await storage.writeArtifact(PDF_ARTIFACT, Readable.from([rendered.pdf]), {
    contentType: 'application/pdf',
    maxBytes: PDF_MAX_BYTES,
  });
  const result: HtmlToPdfResult = {
    content_type: 'application/pdf',
    bytes: artifact.size_bytes,
    pages: rendered.pages,
    sha256: artifact.sha256,
    artifact: PDF_ARTIFACT,
  };
  return { kind: 'completed', result, metrics: rendered.metrics, artifacts: [artifact] };
}
