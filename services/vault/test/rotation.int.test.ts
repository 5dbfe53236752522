import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import type { Closable } from '@svc/service-kit';
import { pollUntil } from '@svc/testkit';
import { candidateSubject, fieldSubject, openValue, sealValue } from '@svc/vault-crypto';
import { saveField } from '../src/domain/fields/save-field';
import { KeyringNotReadyError, runRewrap } from '../src/domain/rotation/run-rewrap';
import { startRotation } from '../src/domain/rotation/start-rotation';
import { startRewrapWorker } from '../src/handlers/rewrap-job';
import { newClientId, startVaultHarness, type VaultHarness } from './harness';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CHILD = path.join(__dirname, 'fixtures', 'rewrap-child.ts');

interface Stored {
  kind: 'field' | 'candidate';
  id: string;
  clientId: string;
  subject: string;
  value: string;
  ciphertext: Buffer;
}

/** Fields of three clients and the candidates of one pending extraction, all sealed with version 1. */
async function seed(h: VaultHarness, fieldsPerClient: number, candidates: number): Promise<Stored[]> {
  const stored: Stored[] = [];
  for (let c = 0; c < 3; c += 1) {
    const clientId = newClientId();
    for (let i = 0; i < fieldsPerClient; i += 1) {
      const value = `note ${c}-${i} of ${clientId.slice(0, 8)}`;
      await saveField(h.deps, { clientId, name: `note_${i}`, type: 'free_text', value });
      stored.push({
        kind: 'field',
        id: '',
        clientId,
        subject: fieldSubject(`note_${i}`),
        value,
        ciphertext: Buffer.alloc(0),
      });
    }
  }
  const clientId = newClientId();
  const extraction = await h.db.prisma.vaultExtraction.create({
    data: {
      clientId,
      documentKind: 'text',
      contentType: 'text/plain',
      pages: 1,
      characters: 100,
      expiresAt: new Date(Date.now() + 3_600_000),
    },
  });
  for (let i = 0; i < candidates; i += 1) {
    const row = await h.db.prisma.vaultCandidate.create({
      data: {
        extractionId: extraction.id,
        clientId,
        position: i,
        fieldName: 'email',
        type: 'email',
        masked: 'j***@example.com',
        confidence: 0.9,
        page: 1,
        spanStart: 0,
        spanEnd: 10,
      },
    });
    const value = `candidate${i}@example.com`;
    const sealed = await sealValue({
      kek: h.deps.keys,
      clientId,
      subject: candidateSubject(extraction.id, row.id),
      plaintext: value,
    });
    await h.db.prisma.vaultCandidate.update({ where: { id: row.id }, data: { ...sealed } });
    stored.push({
      kind: 'candidate',
      id: row.id,
      clientId,
      subject: candidateSubject(extraction.id, row.id),
      value,
      ciphertext: Buffer.alloc(0),
    });
  }
  // A decided candidate has no ciphertext left: nothing to re-wrap.
  await h.db.prisma.vaultCandidate.create({
    data: {
      extractionId: extraction.id,
      clientId,
      position: candidates,
      fieldName: 'email',
      type: 'email',
      masked: 'x***',
      confidence: 0.5,
      page: 1,
      spanStart: 0,
      spanEnd: 1,
      status: 'rejected',
    },
  });
  return stored;
}

/** Every stored row as it is now: version, wrapped key and ciphertext, matched to what was sealed. */
async function readAll(h: VaultHarness, stored: Stored[]) {
  const fields = await h.db.prisma.vaultField.findMany();
  const candidates = await h.db.prisma.vaultCandidate.findMany({ where: { ciphertext: { not: null } } });
  return stored.map((item) => {
    const row =
      item.kind === 'field'
        ? fields.find((f) => f.clientId === item.clientId && fieldSubject(f.name) === item.subject)
        : candidates.find((c) => c.id === item.id);
    if (!row?.ciphertext || !row.wrappedKey || row.keyVersion === null)
      throw new Error(`row of ${item.subject} missing`);
    return {
      item,
      ciphertext: Buffer.from(row.ciphertext),
      wrappedKey: row.wrappedKey,
      keyVersion: row.keyVersion,
    };
  });
}

async function expectAllOpenAt(h: VaultHarness, stored: Stored[], version: number): Promise<void> {
  for (const row of await readAll(h, stored)) {
    expect(row.keyVersion).toBe(version);
    // The value's ciphertext is never touched by a re-wrap.
    expect(row.ciphertext.equals(row.item.ciphertext)).toBe(true);
    const value = await openValue({
      kek: h.deps.keys,
      clientId: row.item.clientId,
      subject: row.item.subject,
      ciphertext: row.ciphertext,
      wrappedKey: row.wrappedKey,
      keyVersion: row.keyVersion,
    });
    expect(value).toBe(row.item.value);
  }
}

async function rememberCiphertexts(h: VaultHarness, stored: Stored[]): Promise<void> {
  for (const row of await readAll(h, stored)) row.item.ciphertext = row.ciphertext;
}

describe('rotation: re-wrap every data key to a new key version', () => {
  let h: VaultHarness;
  let child: ChildProcess | undefined;
  let worker: Closable | undefined;

  beforeAll(async () => {
    h = await startVaultHarness();
  });

  afterEach(async () => {
    child?.kill('SIGKILL');
    child = undefined;
    await worker?.close();
    worker = undefined;
  });

  afterAll(async () => {
    await h?.close();
  });

  test('killed halfway in one process, finished by another: every row on the new version, every value opens', async () => {
    const stored = await seed(h, 40, 20); // 140 data keys
    await rememberCiphertexts(h, stored);
    const before = await h.vault.rotationStatus({});
    expect(before).toMatchObject({
      current_version: 1,
      keyring_versions: [1],
      data_keys_by_version: { '1': 140 },
    });
    expect(before.rewrap).toBeUndefined();

    expect(await h.addKey()).toBe(2);
    const profile = await h.vault.profile({ client_id: stored[0]?.clientId ?? '' });
    expect(profile.profile).toMatchObject({ key_version: 2, fields_on_older_keys: 40 });

    let output = '';
    child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
      cwd: ROOT,
      env: { ...process.env, ...h.childEnv(), REWRAP_BATCH_SIZE: '10', UNWRAP_DELAY_MS: '150' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    await pollUntil(() => output.includes('rewrap worker ready'), {
      what: 'the child worker',
      timeoutMs: 30_000,
      detail: () => output,
    });

    const started = await h.vault.startRotation({});
    expect(started.rewrap).toMatchObject({
      target_version: 2,
      state: 'running',
      rewrapped: 0,
      remaining: 140,
    });
    // Asking again while it runs adds nothing (same job id) and reports the same run.
    const again = await h.vault.startRotation({});
    expect(again.rewrap?.started_at).toBe(started.rewrap?.started_at);

    // Halfway (some whole batches committed), the process dies without a chance to clean up.
    await pollUntil(
      async () =>
        ((await h.db.prisma.vaultRotation.findUnique({ where: { targetVersion: 2 } }))?.rewrapped ?? 0) >= 30,
      { what: 'three batches', timeoutMs: 30_000, intervalMs: 5, detail: () => output },
    );
    child.kill('SIGKILL');
    await new Promise((resolve) => child?.once('exit', resolve));
    child = undefined;

    const halfway = await h.vault.rotationStatus({});
    expect(halfway.rewrap?.state).toBe('running');
    const moved = halfway.rewrap?.rewrapped ?? 0;
    expect(moved).toBeGreaterThanOrEqual(30);
    expect(moved).toBeLessThan(140);
    // The count is committed with its batch: it is exactly the rows already on version 2.
    expect(halfway.data_keys_by_version).toEqual({ '1': 140 - moved, '2': moved });
    expect(halfway.rewrap?.remaining).toBe(140 - moved);

    // "Restart": a worker in this process takes the job over once the dead one's lock has expired.
    worker = startRewrapWorker(h.bus, h.deps, {
      batchSize: 25,
      lockDurationMs: 1_000,
      stalledIntervalMs: 300,
    });
    const done = await pollUntil(
      async () => {
        const state = await h.vault.rotationStatus({});
        return state.rewrap?.state === 'completed' ? state : undefined;
      },
      { what: 'the re-wrap to complete', timeoutMs: 40_000, intervalMs: 100 },
    );
    expect(done.rewrap).toMatchObject({
      target_version: 2,
      state: 'completed',
      rewrapped: 140,
      remaining: 0,
    });
    expect(done.data_keys_by_version).toEqual({ '2': 140 });
    expect(done.rewrap?.finished_at).toBeDefined();
    await expectAllOpenAt(h, stored, 2);
    expect(
      (await h.vault.profile({ client_id: stored[0]?.clientId ?? '' })).profile.fields_on_older_keys,
    ).toBe(0);

    // Started again once complete with nothing left: only reported, not run again.
    const repeat = await h.vault.startRotation({});
    expect(repeat.rewrap).toMatchObject({ state: 'completed', started_at: done.rewrap?.started_at });

    // New values are sealed with version 2 from the start.
    const fresh = await h.vault.saveField({
      client_id: newClientId(),
      request_id: 'r',
      field: { name: 'email', type: 'email', value: 'new.person@example.com' },
    });
    expect(fresh.field.key_version).toBe(2);
    expect(h.log.text()).not.toContain('note 0-');
    expect(h.log.text()).not.toContain('candidate1@');
  }, 120_000);

  test('two runners at once never double-apply: the count is exact and every value opens', async () => {
    const stored = await seed(h, 12, 6); // more rows, whatever earlier tests left on older versions
    await rememberCiphertexts(h, stored);
    const target = await h.addKey();
    const state = await startRotation({ ...h.deps, enqueue: async () => undefined });
    const toMove = state.rewrap?.remaining ?? 0;
    expect(toMove).toBeGreaterThanOrEqual(stored.length);
    const [a, b] = await Promise.all([
      runRewrap(h.deps, target, { batchSize: 7 }),
      runRewrap(h.deps, target, { batchSize: 5 }),
    ]);
    expect(a.state).toBe('completed');
    expect(b.state).toBe('completed');
    const row = await h.db.prisma.vaultRotation.findUniqueOrThrow({ where: { targetVersion: target } });
    expect(row).toMatchObject({ state: 'completed', rewrapped: toMove });
    await expectAllOpenAt(h, stored, target);
  });

  test('a worker whose keyring is not at the target refuses (retried); a newer current version supersedes', async () => {
    const current = h.deps.keys.currentVersion;
    await expect(runRewrap(h.deps, current + 1)).rejects.toBeInstanceOf(KeyringNotReadyError);
    await h.db.prisma.vaultRotation.upsert({
      where: { targetVersion: current - 1 },
      create: { targetVersion: current - 1, state: 'running' },
      update: { state: 'running', finishedAt: null, error: null },
    });
    const outcome = await runRewrap(h.deps, current - 1);
    expect(outcome).toEqual({ state: 'superseded', current });
    const row = await h.db.prisma.vaultRotation.findUniqueOrThrow({ where: { targetVersion: current - 1 } });
    expect(row.state).toBe('failed');
    expect(row.error).toContain('superseded');
  });
});
