import { defineHandler } from '../kit/handler';
import { profileCsv } from './profile-csv';
import type { CsvProfileInput, CsvProfileResult } from './schema';

/**
 * csv-profile on a worker (runtime node): profileCsv streams the one uploaded CSV from object
 * storage. No artifact: the profile is the result.
 */
export default defineHandler<CsvProfileInput, CsvProfileResult>(() => ({
  run: async ({ input, files, storage, signal }) => {
    const [file] = files;
    if (file === undefined) throw new Error('csv-profile: the job carries no file');
    return profileCsv({ input, file, storage }, signal);
  },
}));
