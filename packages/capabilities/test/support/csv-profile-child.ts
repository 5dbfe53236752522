// Child process of csv-profile-memory.int.test.ts: profiles one CSV already in an fs object store
// under the small V8 heap the test gives it (--max-old-space-size) and prints the outcome and the
// heap limit as one JSON line. Argv: <storage dir> <ResolvedFile as JSON>.
import { getHeapStatistics } from 'node:v8';
import { ResolvedFile } from '@svc/contracts';
import { FsObjectStore } from '@svc/storage';
import { profileCsv } from '../../src/csv-profile/profile-csv';
import { CsvProfileInput } from '../../src/csv-profile/schema';
import { createRunStorage } from '../../src/kit/run-storage';

async function main(): Promise<void> {
  const [dir, fileJson] = process.argv.slice(2);
  if (dir === undefined || fileJson === undefined)
    throw new Error('usage: csv-profile-child <dir> <file json>');
  const file = ResolvedFile.parse(JSON.parse(fileJson));
  const storage = createRunStorage(new FsObjectStore({ root: dir }), '00000000-0000-4000-8000-000000000000');
  const input = CsvProfileInput.parse({ upload_id: file.upload_id });
  const outcome = await profileCsv({ input, file, storage }, new AbortController().signal);
  const heapLimitMb = Math.round(getHeapStatistics().heap_size_limit / (1024 * 1024));
  process.stdout.write(`${JSON.stringify({ outcome, heapLimitMb })}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
