import type { JobHandler } from '@svc/bus';
import type { ObjectStore } from '@svc/storage';
import { createRunStorage } from '../domain/capability/run-storage';
import { extractPdfText, type PdfExtractOptions } from '../domain/pdf/extract-pdf-text';
import { type CapabilityJobDeps, capabilityJobHandler } from './capability-job';

/**
 * `capability.pdf-extract-text` (runtime node): the generic capability job around extractPdfText
 * (pdf.js in a worker thread). The payload carries exactly one resolved upload (the catalog's
 * schema); its bytes are read from object storage, the text goes to the artifact `text.txt`.
 */
export function pdfExtractTextJobHandler(
  deps: CapabilityJobDeps & { store: ObjectStore; pdf: PdfExtractOptions },
): JobHandler<'capability.pdf-extract-text'> {
  return capabilityJobHandler(
    'capability.pdf-extract-text',
    deps,
    async ({ run_id, input, files }, signal) => {
      const [file] = files;
      if (file === undefined) throw new Error('pdf-extract-text: the job carries no file');
      return extractPdfText({ input, file, storage: createRunStorage(deps.store, run_id) }, signal, deps.pdf);
    },
  );
}
