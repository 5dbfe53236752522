// As root, the embedded server runs as the `postgres` user. A workspace it cannot enter (a clone
// under /root or in `mktemp -d`, mode 0700) must still work: data and binaries move where that user
// can reach them, and the same intended directory keeps getting the same data back.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { ensurePostgres, freePort, type PostgresHandle } from '../src/index';
import { runsAsOtherUser, SHARED_ROOT } from '../src/postgres-user-access';

async function query(url: string, sql: string): Promise<Array<Record<string, unknown>>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql)).rows;
  } finally {
    await client.end();
  }
}

describe('embedded PostgreSQL in a directory others cannot enter', () => {
  let root: string;
  let intended: string;
  const handles: PostgresHandle[] = [];

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'devstack-private-')); // mode 0700, like `mktemp -d`
    intended = path.join(root, '.data', 'postgres');
  });

  afterAll(async () => {
    await Promise.allSettled(handles.map((handle) => handle.stop()));
    for (const handle of handles) {
      if (handle.dataDir?.startsWith(`${SHARED_ROOT}/`))
        fs.rmSync(handle.dataDir, { recursive: true, force: true });
    }
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('starts, keeps its data across restarts, and says where the data is', async () => {
    const port = await freePort();
    const first = await ensurePostgres({ dataDir: intended, port });
    handles.push(first);
    await query(first.url, 'CREATE TABLE kept (n int); INSERT INTO kept VALUES (7)');
    await first.stop();

    const second = await ensurePostgres({ dataDir: intended, port });
    handles.push(second);
    expect(second.dataDir).toBe(first.dataDir);
    expect(await query(second.url, 'SELECT n FROM kept')).toEqual([{ n: 7 }]);
    expect(fs.existsSync(path.join(second.dataDir ?? '', 'PG_VERSION'))).toBe(true);
    if (runsAsOtherUser()) {
      expect(second.dataDir?.startsWith(`${SHARED_ROOT}/data-`)).toBe(true);
    } else {
      expect(second.dataDir).toBe(intended); // our own user can always enter our own directory
    }
  });
});
