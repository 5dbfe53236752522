import { execFile } from 'node:child_process';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { z } from 'zod';
import { CSV_DISTINCT_LIMIT, CSV_MAX_BYTES, CsvProfileResult } from '../src/csv-profile/schema';
import { createTempStore, type TempStore } from './support/temp-store';

// csv-profile on a CSV of almost CSV_MAX_BYTES (200 MiB) in a real fs object store, profiled in a
// child process whose V8 heap is capped far below the file's size: it completes only because the
// file is streamed and every per-column structure is bounded (a row-distinct id column included).
// An integration test although it needs no server: it writes and reads 200 MB (about a minute).

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CHILD = 'packages/capabilities/test/support/csv-profile-child.ts';
/** bytes: the file is this close to the limit. */
const TARGET_BYTES = CSV_MAX_BYTES - 1024 * 1024;
/** MiB of V8 old space the child gets: under half the file (holding it as strings needs more than all of it). */
const HEAP_MB = 96;

let temp: TempStore;

beforeAll(async () => {
  temp = await createTempStore();
});

afterAll(async () => {
  await temp?.close();
});

/** Rows of an id (distinct), a number, a date, a word and a quoted text, up to `bytes` on a line end. */
function bigCsv(bytes: number): { stream: Readable; rows: () => number } {
  let written = 0;
  let row = 0;
  const stream = new Readable({
    read() {
      if (written >= bytes) {
        this.push(null);
        return;
      }
      const lines: string[] = [];
      if (row === 0) lines.push('id,amount,day,word,text');
      const first = row;
      for (let i = 0; i < 2_000; i += 1) {
        row += 1;
        const day = String((row % 28) + 1).padStart(2, '0');
        const text = `"row ${row} says ""hello"", with a comma and ${'x'.repeat(row % 200)}"`;
        lines.push(`${row},${(row % 1000) / 10},2024-01-${day},w${row % 50_000},${text}`);
      }
      let chunk = Buffer.from(`${lines.join('\n')}\n`);
      if (written + chunk.length > bytes) {
        // The last chunk ends on a whole line; count only the rows it keeps.
        chunk = chunk.subarray(0, chunk.lastIndexOf(0x0a, bytes - written - 1) + 1);
        const kept = chunk.toString('latin1').split('\n').length - 1 - (first === 0 ? 1 : 0);
        row = first + kept;
        written = bytes;
      } else {
        written += chunk.length;
      }
      this.push(chunk);
    },
  });
  return { stream, rows: () => row };
}

const ChildAnswer = z.object({
  outcome: z.object({ kind: z.literal('completed'), result: CsvProfileResult }),
  heapLimitMb: z.number(),
});

describe('csv-profile on a 200 MB file', () => {
  it(`profiles every row within a ${HEAP_MB} MiB heap`, async () => {
    const source = bigCsv(TARGET_BYTES);
    const file = await temp.upload('big.csv', 'text/csv', source.stream);
    expect(file.size_bytes).toBeGreaterThan(TARGET_BYTES - 300_000);
    expect(file.size_bytes).toBeLessThanOrEqual(TARGET_BYTES);

    const { stdout } = await promisify(execFile)(
      process.execPath,
      [`--max-old-space-size=${HEAP_MB}`, '--import', 'tsx', CHILD, temp.dir, JSON.stringify(file)],
      { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 },
    );
    const answer = ChildAnswer.parse(JSON.parse(stdout.trim()));
    // The cap was in force (the heap limit is old space plus young generation).
    expect(answer.heapLimitMb).toBeLessThan(HEAP_MB + 64);
    const result = answer.outcome.result;
    expect(result.bytes).toBe(file.size_bytes);
    expect(result.rows).toBe(source.rows());
    const id = result.columns.find((column) => column.name === 'id');
    expect(id).toMatchObject({ type: 'integer', min: 1, max: result.rows, distinct_exact: false });
    expect(id?.distinct).toBe(CSV_DISTINCT_LIMIT + 1);
    expect(result.columns.find((column) => column.name === 'day')).toMatchObject({
      type: 'date',
      distinct: 28,
    });
    expect(result.columns.find((column) => column.name === 'text')).toMatchObject({
      type: 'string',
      nulls: 0,
    });
  }, 300_000);
});
