import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { CSV_MAX_COLUMNS, defineProbe, pdfPageProbe, storedMeasure, streamMeasure } from '@svc/capabilities';
import { VAULT_DOCUMENT_UPLOAD_SLUG } from '@svc/contracts';
import { FsObjectStore } from '@svc/storage';
import { z } from 'zod';
import { makePdf } from '../../test/fixtures';
import { measurementOf } from './file-probes';
import { probeOf } from './upload-targets';

const row = (fields: number) => Array.from({ length: fields }, () => 'x').join(',');

/** Everything `stream` passes on, in order. */
async function drain(stream: Readable): Promise<Buffer> {
  const received: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      received.push(chunk);
      callback();
    },
  });
  await pipeline(stream, sink);
  return Buffer.concat(received);
}

let dir: string;
let store: FsObjectStore;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'upload-probes-'));
  store = new FsObjectStore({ root: dir });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('probeOf', () => {
  it("is the probe the upload's capability declares, a reserved target's own, or none", () => {
    expect(probeOf('pdf-extract-text')).toBe(pdfPageProbe);
    expect(probeOf('csv-profile')?.contentTypes).toEqual(['text/csv']);
    expect(probeOf(VAULT_DOCUMENT_UPLOAD_SLUG)).toBe(pdfPageProbe);
    // A capability without files, and one this build does not have: no facts.
    expect(probeOf('pii-redact')).toBeUndefined();
    expect(probeOf('no-such-capability')).toBeUndefined();
  });
});

describe('measurementOf', () => {
  it("measures a stream probe's bytes on their way to storage, passing every byte on unchanged", async () => {
    const text = `${row(3)}\n${row(CSV_MAX_COLUMNS + 1)}\n`;
    const measurement = await measurementOf(probeOf('csv-profile'), {
      contentType: 'text/csv',
      sizeBytes: Buffer.byteLength(text),
    });
    const chunks = [Buffer.from(text.slice(0, 7)), Buffer.from(text.slice(7))];
    const stored = await drain(measurement.through(Readable.from(chunks)));
    expect(stored.toString('utf8')).toBe(text);
    const facts = await measurement.facts(store, 'never-read');
    expect(facts).toMatchObject({ csv: { ',': { columns: CSV_MAX_COLUMNS + 1, complete: false } } });
  });

  it('reads a stored probe’s bytes back once they are stored (a PDF’s pages)', async () => {
    const pdf = await makePdf(2);
    await store.put('uploads/a', Readable.from([pdf]), { contentType: 'application/pdf' });
    const measurement = await measurementOf(pdfPageProbe, {
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
    });
    const body = Readable.from([pdf]);
    // Nothing to measure on the way: the body goes to storage as it is.
    expect(measurement.through(body)).toBe(body);
    expect(await measurement.facts(store, 'uploads/a')).toEqual({ pages: 2 });
  });

  it('gives no facts without a probe, or for a type the probe does not read', async () => {
    for (const measurement of [
      await measurementOf(undefined, { contentType: 'application/pdf', sizeBytes: 10 }),
      await measurementOf(pdfPageProbe, { contentType: 'text/plain', sizeBytes: 10 }),
    ]) {
      const body = Readable.from([Buffer.from('0123456789')]);
      expect(measurement.through(body)).toBe(body);
      expect(await measurement.facts(store, 'never-read')).toEqual({});
    }
  });

  it('runs a probe it has never seen: its facts are whatever the probe records (no change here)', async () => {
    // A probe of a new capability, recording a fact no contract names: nothing in this service changes.
    const lines = defineProbe({
      facts: z.object({ lines: z.number().int().optional() }),
      contentTypes: ['text/plain'],
      measure: async () => ({
        default: streamMeasure(() => {
          let lines = 0;
          return {
            write: (chunk: Buffer) => {
              for (const byte of chunk) if (byte === 0x0a) lines += 1;
            },
            facts: async () => ({ lines }),
          };
        }),
      }),
    });
    const measurement = await measurementOf(lines, { contentType: 'text/plain', sizeBytes: 6 });
    await drain(measurement.through(Readable.from([Buffer.from('a\nb\nc\n')])));
    expect(await measurement.facts(store, 'never-read')).toEqual({ lines: 3 });
  });

  it('refuses facts that are not JSON (a probe bug: nothing is stored)', async () => {
    const broken = defineProbe({
      facts: z.object({ when: z.date().optional() }),
      contentTypes: ['text/plain'],
      measure: async () => ({ default: storedMeasure(async () => ({ when: new Date(0) })) }),
    });
    await store.put('uploads/b', Readable.from([Buffer.from('x')]), { contentType: 'text/plain' });
    const measurement = await measurementOf(broken, { contentType: 'text/plain', sizeBytes: 1 });
    await expect(measurement.facts(store, 'uploads/b')).rejects.toThrow();
  });
});
