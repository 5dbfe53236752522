import { type Bus, type JobProcessor, type ProcessJobsOptions, processJobs } from '@svc/bus';
import type { Logger } from '@svc/log';
import type { ObjectStore } from '@svc/storage';
import type { ActiveRuns } from '../domain/capability/active-runs';
import type { CrtRunner } from '../domain/crt/crt-runner';
import { echo } from '../domain/echo';
import type { PdfRenderer } from '../domain/html-to-pdf/render-pdf';
import type { PdfExtractOptions } from '../domain/pdf/extract-pdf-text';
import type { RunObserver } from './capability-job';
import { crtJobHandler } from './crt-job';
import { csvProfileJobHandler } from './csv-profile-job';
import { htmlToPdfJobHandler } from './html-to-pdf-job';
import { imageThumbnailJobHandler } from './image-thumbnail-job';
import { pdfExtractTextJobHandler } from './pdf-extract-text-job';
import { piiRedactJobHandler } from './pii-redact-job';

/**
 * Runtimes of the capabilities this worker runs (each capability's manifest `runtime`, design
 * "Capabilities"): a queue is consumed only by workers that serve its runtime.
 */
const NODE_RUNTIME = 'node';
const BROWSER_RUNTIME = 'browser';

export interface JobConsumerOptions {
  /** Jobs run at once by this process, per queue (WORKER_CONCURRENCY). */
  concurrency: number;
  /** ms: how long closing waits for running jobs before dropping them (they are redelivered). */
  drainTimeoutMs: number;
  /** BullMQ lock and stalled-job settings of the capability queues (WORKER_LOCK_DURATION_MS, …). */
  stall: Pick<ProcessJobsOptions, 'lockDurationMs' | 'stalledIntervalMs' | 'maxStalledCount'>;
  /** WORKER_RUNTIMES: capability queues are consumed only for runtimes this worker serves. */
  runtimes: readonly string[];
  /** The runs of this process, for cancellation requests. */
  activeRuns: ActiveRuns;
  /** The crt capability (node). */
  runCrt: CrtRunner;
  /** The html-to-pdf capability (browser); required when `browser` is among the runtimes. */
  renderPdf?: PdfRenderer;
  /** Object storage: the file capabilities' inputs (uploads) and every run's artifacts. */
  store: ObjectStore;
  /** pdf-extract-text's reading thread limits (PDF_EXTRACT_STEP_TIMEOUT_MS, …_THREAD_HEAP_MB). */
  pdf: PdfExtractOptions;
  /** Per-attempt metrics (outcome, duration); optional. */
  observe?: RunObserver;
  logger: Logger;
}

/**
 * Starts a consumer for every job queue this worker handles: `system.echo` always; `capability.crt`,
 * `pii-redact`, `pdf-extract-text`, `image-thumbnail` and `csv-profile` on node;
 * `capability.html-to-pdf` on browser.
 */
export function startJobConsumers(bus: Bus, options: JobConsumerOptions): JobProcessor[] {
  const echoOptions = { concurrency: options.concurrency, closeTimeoutMs: options.drainTimeoutMs };
  const capabilityOptions = { ...echoOptions, ...options.stall };
  const deps = {
    bus,
    logger: options.logger,
    activeRuns: options.activeRuns,
    ...(options.observe === undefined ? {} : { observe: options.observe }),
  };
  const consumers = [processJobs(bus, 'system.echo', (payload) => echo(payload), echoOptions)];
  if (options.runtimes.includes(NODE_RUNTIME)) {
    const crt = crtJobHandler({ ...deps, runCrt: options.runCrt });
    consumers.push(processJobs(bus, 'capability.crt', crt, capabilityOptions));
    consumers.push(processJobs(bus, 'capability.pii-redact', piiRedactJobHandler(deps), capabilityOptions));
    const files = { ...deps, store: options.store };
    consumers.push(
      processJobs(
        bus,
        'capability.pdf-extract-text',
        pdfExtractTextJobHandler({ ...files, pdf: options.pdf }),
        capabilityOptions,
      ),
      processJobs(bus, 'capability.image-thumbnail', imageThumbnailJobHandler(files), capabilityOptions),
      processJobs(bus, 'capability.csv-profile', csvProfileJobHandler(files), capabilityOptions),
    );
  }
  if (options.runtimes.includes(BROWSER_RUNTIME)) {
    if (!options.renderPdf) throw new Error('a browser worker needs the html-to-pdf renderer');
    const handler = htmlToPdfJobHandler({ ...deps, renderPdf: options.renderPdf, store: options.store });
    consumers.push(processJobs(bus, 'capability.html-to-pdf', handler, capabilityOptions));
  }
  return consumers;
}
