import type { CandidateDecision, ReviewExtractionRequest, VaultExtraction, VaultField } from '@svc/contracts';
import { VaultFieldType } from '@svc/contracts';
import { ConflictError, ValidationError } from '@svc/errors';
import { candidateSubject, openValue } from '@svc/vault-crypto';
import { recordDecryption } from '../audit';
import type { VaultDeps, VaultTx } from '../deps';
import { saveFieldInTx } from '../fields/save-field';
import { EXTRACTION_VIEW_SELECT, extractionView } from './extraction-view';
import { unknownExtraction } from './list-extractions';

export interface ReviewExtractionInput {
  clientId: string;
  requestId: string;
  extractionId: string;
  review: ReviewExtractionRequest;
}

export interface ReviewOutcome {
  extraction: VaultExtraction;
  savedFields: VaultField[];
}

type ReviewDeps = Pick<VaultDeps, 'prisma' | 'keys' | 'settings' | 'now'>;

interface LockedExtraction {
  status: string;
  version: number;
  expires_at: Date;
}

interface CandidateRow {
  id: string;
  fieldName: string;
  type: string;
  status: string;
  ciphertext: Uint8Array | null;
  wrappedKey: Uint8Array | null;
  keyVersion: number | null;
}

/** ms: the review's transaction (up to 200 decisions, each a seal and maybe an unseal). */
const REVIEW_TX_TIMEOUT_MS = 30_000;

/**
 * `rpc.vault.reviewExtraction` (docs/decisions.md VE5): every decision applied together or none, in
 * one transaction holding the extraction's row lock (SELECT … FOR UPDATE), so two reviews of the
 * same version cannot both pass the version check. 404 unknown or another client's; 409 when the
 * extraction is not at `expected_version`, expired, or already reviewed; 422 for a decision naming
 * no pending candidate of it. An approval decrypts the candidate only when no corrected `value` is
 * given (audit line `approve`, subject the extraction, committed before the decryption), saves the field
 * (E1's saveFieldInTx: validated by type, created, or updated at `field_version`), and destroys the
 * candidate's ciphertext; a rejection destroys it too. The extraction's version goes up by one; it
 * is `reviewed` once no candidate is pending.
 */
export async function reviewExtraction(
  deps: ReviewDeps,
  input: ReviewExtractionInput,
): Promise<ReviewOutcome> {
  const { clientId, extractionId } = input;
  const savedFields = await deps.prisma.$transaction(
    async (tx) => {
      const now = deps.now();
      await lockReviewable(tx, input, now);
      const candidates = await pendingCandidates(tx, input);
      const saved: VaultField[] = [];
      for (const [index, decision] of input.review.decisions.entries()) {
        const candidate = candidates.get(decision.candidate_id);
        if (candidate === undefined) throw new Error('unreachable: decisions were checked');
        if (decision.action === 'reject') {
          await decide(tx, candidate.id, { status: 'rejected', decidedAt: now });
          continue;
        }
        const field = await approve(tx, deps, input, { index, decision, candidate });
        saved.push(field);
        await decide(tx, candidate.id, {
          status: 'approved',
          decidedAt: now,
          savedAsName: field.name,
          savedAsVersion: field.version,
        });
      }
      const left = await tx.vaultCandidate.count({ where: { extractionId, status: 'pending' } });
      await tx.vaultExtraction.update({
        where: { id: extractionId },
        data: {
          version: { increment: 1 },
          ...(left === 0 ? { status: 'reviewed', reviewedAt: now } : {}),
        },
      });
      return saved;
    },
    { timeout: REVIEW_TX_TIMEOUT_MS },
  );
  const row = await deps.prisma.vaultExtraction.findFirst({
    where: { id: extractionId, clientId },
    select: EXTRACTION_VIEW_SELECT,
  });
  if (row === null) throw unknownExtraction(extractionId);
  return { extraction: extractionView(row, deps.now()), savedFields };
}

/** Locks the client's extraction and checks it may be reviewed at the expected version. */
async function lockReviewable(tx: VaultTx, input: ReviewExtractionInput, now: Date): Promise<void> {
  const rows = await tx.$queryRaw<LockedExtraction[]>`
    SELECT "status", "version", "expires_at" FROM "vault"."extractions"
    WHERE "id" = ${input.extractionId}::uuid AND "client_id" = ${input.clientId}::uuid
    FOR UPDATE`;
  const locked = rows[0];
  if (locked === undefined) throw unknownExtraction(input.extractionId);
  // Expired (swept or not yet): 409, not 410 — the platform's errors have no 410 and the answer
  // is the same for the client: the candidates are gone, extract the document again (VE6).
  if (locked.status === 'expired' || (locked.status === 'pending' && locked.expires_at <= now)) {
    throw new ConflictError(
      `extraction ${input.extractionId} expired at ${locked.expires_at.toISOString()}: its candidates were destroyed; extract the document again`,
    );
  }
  if (locked.status !== 'pending') {
    throw new ConflictError(
      `extraction ${input.extractionId} is ${locked.status}: no candidate is left to review`,
    );
  }
  if (locked.version !== input.review.expected_version) {
    throw new ConflictError(
      `extraction ${input.extractionId} is at version ${locked.version}, not ${input.review.expected_version}: read it again before reviewing`,
    );
  }
}

/** The candidates the decisions name, each pending and of this extraction, once (422 otherwise). */
async function pendingCandidates(
  tx: VaultTx,
  input: ReviewExtractionInput,
): Promise<Map<string, CandidateRow>> {
  const { decisions } = input.review;
  const ids = decisions.map((decision) => decision.candidate_id);
  const rows = await tx.vaultCandidate.findMany({
    where: { extractionId: input.extractionId, id: { in: ids } },
    select: {
      id: true,
      fieldName: true,
      type: true,
      status: true,
      ciphertext: true,
      wrappedKey: true,
      keyVersion: true,
    },
  });
  const byId = new Map(rows.map((row) => [row.id, row]));
  const seen = new Set<string>();
  const targets = new Map<string, number>();
  for (const [index, decision] of decisions.entries()) {
    const id = decision.candidate_id;
    if (seen.has(id))
      throw new ValidationError(`decisions[${index}]: candidate ${id} is decided more than once`);
    seen.add(id);
    const row = byId.get(id);
    if (row === undefined) {
      throw new ValidationError(
        `decisions[${index}]: ${id} is not a candidate of extraction ${input.extractionId}`,
      );
    }
    if (row.status !== 'pending') {
      throw new ValidationError(`decisions[${index}]: candidate ${id} is already ${row.status}`);
    }
    if (decision.action === 'approve') {
      const target = decision.field_name ?? row.fieldName;
      const other = targets.get(target);
      if (other !== undefined) {
        throw new ValidationError(
          `decisions[${index}]: field "${target}" is already the target of decisions[${other}]; approve one value per field`,
        );
      }
      targets.set(target, index);
    }
  }
  return byId;
}

interface Approval {
  index: number;
  decision: Extract<CandidateDecision, { action: 'approve' }>;
  candidate: CandidateRow;
}

/** Saves one approved candidate as a field; returns the saved field. */
async function approve(
  tx: VaultTx,
  deps: ReviewDeps,
  input: ReviewExtractionInput,
  approval: Approval,
): Promise<VaultField> {
  const { index, decision, candidate } = approval;
  const name = decision.field_name ?? candidate.fieldName;
  const type = decision.type ?? VaultFieldType.parse(candidate.type);
  const existing = await tx.vaultField.findUnique({
    where: { clientId_name: { clientId: input.clientId, name } },
    select: { version: true },
  });
  if (existing !== null && decision.field_version === undefined) {
    throw new ConflictError(
      `decisions[${index}]: field "${name}" exists at version ${existing.version}: send field_version ${existing.version} to replace it, or another field_name`,
    );
  }
  if (existing === null && decision.field_version !== undefined) {
    throw new ConflictError(
      `decisions[${index}]: field "${name}" does not exist (any more): approve without field_version to create it`,
    );
  }
  // Checked before anything is decrypted. A corrected value replaces the extracted one: then
  // nothing is decrypted (nor audited).
  const value = decision.value ?? (await decryptCandidate(deps, input, candidate, name));
  const saved = await saveFieldInTx(tx, deps, {
    clientId: input.clientId,
    name,
    type,
    value,
    expectedVersion: existing === null ? undefined : decision.field_version,
    source: { kind: 'extraction', extractionId: input.extractionId, candidateId: candidate.id },
    valueLabel:
      decision.value === undefined
        ? `decisions[${index}] (candidate ${candidate.id})`
        : `decisions[${index}].value`,
  });
  return saved.field;
}

/**
 * The candidate's plaintext. Its audit line is written first and committed on its own (not in the
 * review's transaction): every decryption has its line even when the review then fails or the
 * process dies — the trail may show an approval's decryption whose save rolled back, never miss
 * one (docs/decisions.md VE11).
 */
async function decryptCandidate(
  deps: ReviewDeps,
  input: ReviewExtractionInput,
  candidate: CandidateRow,
  field: string,
): Promise<string> {
  const { ciphertext, wrappedKey, keyVersion } = candidate;
  if (ciphertext === null || wrappedKey === null || keyVersion === null) {
    // A pending candidate of a live extraction always has its ciphertext; the sweep nulls it only
    // with the extraction's status, under the same row lock.
    throw new Error(`candidate ${candidate.id} has no ciphertext although pending`);
  }
  await recordDecryption(deps.prisma, {
    clientId: input.clientId,
    purpose: 'approve',
    field,
    keyVersion,
    subjectId: input.extractionId,
    requestId: input.requestId,
  });
  return openValue({
    kek: deps.keys,
    clientId: input.clientId,
    subject: candidateSubject(input.extractionId, candidate.id),
    ciphertext,
    wrappedKey,
    keyVersion,
  });
}

/** A decided candidate keeps its masked value and place; its ciphertext and data key are destroyed. */
async function decide(
  tx: VaultTx,
  candidateId: string,
  data: { status: 'approved' | 'rejected'; decidedAt: Date; savedAsName?: string; savedAsVersion?: number },
): Promise<void> {
  await tx.vaultCandidate.update({
    where: { id: candidateId },
    data: { ...data, ciphertext: null, wrappedKey: null, keyVersion: null },
  });
}
