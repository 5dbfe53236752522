import type { VaultField, VaultFieldType } from '@svc/contracts';
import { isUniqueViolation } from '@svc/db';
import { ConflictError, NotFoundError, ValidationError } from '@svc/errors';
import { fieldSubject, sealValue } from '@svc/vault-crypto';
import type { VaultDeps, VaultTx } from '../deps';
import { maskValue, normalizeFieldValue } from '../field-types';
import { FIELD_ROW_SELECT, type FieldSource, fieldView } from './field-view';
import { markFieldsChanged } from './fields-changed';

/** What a save needs from the deps (the extraction review saves its approvals with the same). */
export type FieldWriteDeps = Pick<VaultDeps, 'keys' | 'settings' | 'now'>;

export interface SaveFieldInput {
  clientId: string;
  name: string;
  type: VaultFieldType;
  /** Plaintext as sent: validated, normalised, masked and sealed here; never logged or echoed. */
  value: string;
  /** Absent: create (409 if the field exists). Present: update exactly that version (409/404). */
  expectedVersion?: number | undefined;
  /** Default `{kind: 'entered'}`. */
  source?: FieldSource | undefined;
  /**
   * How a 422 names the value (default `value of field "<name>"`); e.g. the review passes
   * `decisions[2].value` so the client knows which decision failed.
   */
  valueLabel?: string | undefined;
}

export interface SavedField {
  outcome: 'created' | 'updated';
  field: VaultField;
}

function validate(deps: FieldWriteDeps, input: SaveFieldInput): string {
  const result = normalizeFieldValue(input.type, input.value, { now: deps.now() });
  if (result.ok) return result.value;
  // The rule only: a 422 never echoes the value (docs/decisions.md "The vault", VS3).
  const label = input.valueLabel ?? `value of field "${input.name}"`;
  throw new ValidationError(`${label} (type ${input.type}) ${result.rule}`);
}

function existsConflict(name: string, version: number): ConflictError {
  return new ConflictError(
    `field "${name}" already exists at version ${version}: send expected_version ${version} to update it`,
  );
}

/** Serialises the creates of one client (the field-count limit), within the caller's transaction. */
async function lockClientFields(tx: VaultTx, clientId: string): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`vault.fields:${clientId}`}, 0))`;
}

async function create(
  tx: VaultTx,
  deps: FieldWriteDeps,
  input: SaveFieldInput,
  sealed: Awaited<ReturnType<typeof sealValue>>,
  masked: string,
): Promise<SavedField> {
  await lockClientFields(tx, input.clientId);
  const existing = await tx.vaultField.findUnique({
    where: { clientId_name: { clientId: input.clientId, name: input.name } },
    select: { version: true },
  });
  if (existing) throw existsConflict(input.name, existing.version);
  const count = await tx.vaultField.count({ where: { clientId: input.clientId } });
  if (count >= deps.settings.maxFieldsPerClient) {
    throw new ConflictError(
      `the vault holds its maximum of ${deps.settings.maxFieldsPerClient} fields: delete one before creating "${input.name}"`,
    );
  }
  const now = deps.now();
  try {
    const row = await tx.vaultField.create({
      data: {
        clientId: input.clientId,
        name: input.name,
        ...storedValue(input, sealed, masked),
        createdAt: now,
        updatedAt: now,
      },
      select: FIELD_ROW_SELECT,
    });
    await markFieldsChanged(tx, input.clientId, now);
    return { outcome: 'created', field: fieldView(row) };
  } catch (err) {
    // The lock makes this unreachable for writers that take it; kept for any that do not.
    if (isUniqueViolation(err)) throw new ConflictError(`field "${input.name}" already exists`);
    throw err;
  }
}

/** The columns a save writes, created or updated: the type, the sealed value, its mask and its source. */
function storedValue(input: SaveFieldInput, sealed: Awaited<ReturnType<typeof sealValue>>, masked: string) {
  const source = input.source ?? { kind: 'entered' };
  return {
    type: input.type,
    ciphertext: sealed.ciphertext,
    wrappedKey: sealed.wrappedKey,
    keyVersion: sealed.keyVersion,
    masked,
    sourceKind: source.kind,
    sourceExtractionId: source.kind === 'extraction' ? source.extractionId : null,
    sourceCandidateId: source.kind === 'extraction' ? source.candidateId : null,
  };
}

async function update(
  tx: VaultTx,
  deps: FieldWriteDeps,
  input: SaveFieldInput & { expectedVersion: number },
  sealed: Awaited<ReturnType<typeof sealValue>>,
  masked: string,
): Promise<SavedField> {
  const now = deps.now();
  // Conditional on the version: of two updates from the same version exactly one matches a row.
  const changed = await tx.vaultField.updateMany({
    where: { clientId: input.clientId, name: input.name, version: input.expectedVersion },
    data: {
      ...storedValue(input, sealed, masked),
      version: { increment: 1 },
      updatedAt: now,
    },
  });
  const row = await tx.vaultField.findUnique({
    where: { clientId_name: { clientId: input.clientId, name: input.name } },
    select: FIELD_ROW_SELECT,
  });
  if (!row)
    throw new NotFoundError(
      `field "${input.name}" does not exist: save it without expected_version to create it`,
    );
  if (changed.count === 0) {
    throw new ConflictError(
      `field "${input.name}" is at version ${row.version}, not ${input.expectedVersion}: read it again before updating`,
    );
  }
  await markFieldsChanged(tx, input.clientId, now);
  return { outcome: 'updated', field: fieldView(row) };
}

/**
 * Creates or updates one field from a plaintext inside the caller's transaction (the review saves
 * its approvals with the extraction's change): validates and normalises by type (422 naming the
 * rule), masks, seals under a fresh data key wrapped with the keyring's current version, then
 * creates (409 if it exists, naming its version) or updates exactly `expectedVersion` (409 stale,
 * 404 missing). Errors never contain the value.
 */
export async function saveFieldInTx(
  tx: VaultTx,
  deps: FieldWriteDeps,
  input: SaveFieldInput,
): Promise<SavedField> {
  const normalized = validate(deps, input);
  const masked = maskValue(input.type, normalized);
  const sealed = await sealValue({
    kek: deps.keys,
    clientId: input.clientId,
    subject: fieldSubject(input.name),
    plaintext: normalized,
  });
  return input.expectedVersion === undefined
    ? create(tx, deps, input, sealed, masked)
    : update(tx, deps, { ...input, expectedVersion: input.expectedVersion }, sealed, masked);
}

/** `rpc.vault.saveField`: one field in a transaction of its own. */
export async function saveField(
  deps: FieldWriteDeps & Pick<VaultDeps, 'prisma'>,
  input: SaveFieldInput,
): Promise<SavedField> {
  try {
    return await deps.prisma.$transaction((tx) => saveFieldInTx(tx, deps, input));
  } catch (err) {
    if (isUniqueViolation(err)) throw new ConflictError(`field "${input.name}" already exists`);
    throw err;
  }
}

export type { FieldSource };
