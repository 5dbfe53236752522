import type { PrismaClient } from '@svc/db';
import type { KeyEncryptionKeys } from '@svc/vault-crypto';
import { rewrapBatch } from './rewrap-batch';

/** Rows re-wrapped per transaction: small enough that a kill loses little, large enough to be quick. */
export const REWRAP_BATCH_SIZE = 200;

/**
 * The keyring of this process does not (yet) have the target as its current version: the keyring
 * file was changed but this process has not re-read it. Retried (job backoff) until it has.
 */
export class KeyringNotReadyError extends Error {
  override readonly name = 'KeyringNotReadyError';
}

export interface RewrapDeps {
  prisma: PrismaClient;
  keys: KeyEncryptionKeys;
  now: () => Date;
}

export interface RunRewrapOptions {
  batchSize?: number;
  /** Aborted when the process is stopping: the loop ends after the batch in flight (resumable). */
  signal?: AbortSignal;
  /** After each committed batch (job progress, tests). */
  onBatch?: (batch: { rewrapped: number; scanned: number }) => void | Promise<void>;
}

export type RewrapOutcome =
  | { state: 'completed'; rewrapped: number }
  | { state: 'superseded'; current: number };

async function finish(
  deps: RewrapDeps,
  target: number,
  state: 'completed' | 'failed',
  error?: string,
): Promise<void> {
  await deps.prisma.vaultRotation.updateMany({
    where: { targetVersion: target, state: 'running' },
    data: { state, finishedAt: deps.now(), error: error ?? null },
  });
}

/** Marks a rotation failed for good (the job's last attempt failed): the message names the cause, never bytes. */
export async function failRotation(deps: RewrapDeps, target: number, message: string): Promise<void> {
  await finish(deps, target, 'failed', message.slice(0, 500));
}

function checkKeyring(keys: KeyEncryptionKeys, target: number): 'ready' | 'superseded' {
  if (keys.currentVersion === target) return 'ready';
  if (keys.currentVersion > target && keys.versions.includes(target)) return 'superseded';
  throw new KeyringNotReadyError(
    `this vault process's keyring is at version ${keys.currentVersion}, not ${target}: waiting for it to re-read the keyring file`,
  );
}

/**
 * The `vault.rewrap` job: re-wraps every stored data key (fields, pending candidates) to `target`,
 * batch after batch, until no row is left; then marks the rotation completed. Every batch is
 * idempotent (rows not at the target, conditional updates), so a killed or retried run resumes
 * where the last committed batch ended. Refuses to run while this process's keyring is not at
 * `target` (KeyringNotReadyError, retried); ends as `superseded` (rotation failed, naming the newer
 * version) when a newer version became current: moving keys back would fight that rotation.
 */
export async function runRewrap(
  deps: RewrapDeps,
  target: number,
  options: RunRewrapOptions = {},
): Promise<RewrapOutcome> {
  const batchSize = options.batchSize ?? REWRAP_BATCH_SIZE;
  for (;;) {
    if (checkKeyring(deps.keys, target) === 'superseded') {
      await failRotation(
        deps,
        target,
        `superseded: version ${deps.keys.currentVersion} became current first`,
      );
      return { state: 'superseded', current: deps.keys.currentVersion };
    }
    if (options.signal?.aborted) {
      throw new Error(
        `re-wrap to version ${target} stopped (process closing); it resumes on the next attempt`,
      );
    }
    const batch = await rewrapBatch(deps, target, batchSize);
    if (batch.scanned === 0) break;
    await options.onBatch?.(batch);
  }
  await finish(deps, target, 'completed');
  const row = await deps.prisma.vaultRotation.findUnique({ where: { targetVersion: target } });
  return { state: 'completed', rewrapped: row?.rewrapped ?? 0 };
}
