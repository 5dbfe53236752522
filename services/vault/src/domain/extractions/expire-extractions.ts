import type { VaultDeps } from '../deps';

/** Extractions expired per statement: bounds one pass; the next pass goes on. */
export const EXPIRE_BATCH = 500;

/**
 * The sweep's extraction part (docs/decisions.md VE7): pending extractions past `expires_at` become
 * `expired` and their candidates' ciphertexts and wrapped data keys are set NULL (crypto-shredded),
 * in one statement per batch. Rows a review holds locked are skipped (SKIP LOCKED) rather than
 * waited for: the review refuses an expired extraction itself, and the next pass takes the row.
 * Idempotent; safe on several replicas at once. Returns how many extractions it expired.
 */
export async function expireExtractions(
  deps: Pick<VaultDeps, 'prisma' | 'now'>,
  maxBatches = 20,
): Promise<number> {
  const now = deps.now();
  let total = 0;
  for (let batch = 0; batch < maxBatches; batch += 1) {
    const [result] = await deps.prisma.$queryRaw<{ expired: number }[]>`
      WITH due AS (
        SELECT "id" FROM "vault"."extractions"
        WHERE "status" = 'pending' AND "expires_at" <= ${now}::timestamptz
        ORDER BY "expires_at"
        LIMIT ${EXPIRE_BATCH}
        FOR UPDATE SKIP LOCKED
      ), expired AS (
        UPDATE "vault"."extractions" AS e SET "status" = 'expired'
        FROM due WHERE e."id" = due."id"
        RETURNING e."id"
      ), shredded AS (
        UPDATE "vault"."candidates" AS c
        SET "ciphertext" = NULL, "wrapped_key" = NULL, "key_version" = NULL
        FROM expired WHERE c."extraction_id" = expired."id" AND c."ciphertext" IS NOT NULL
        RETURNING c."id"
      )
      SELECT (SELECT count(*) FROM expired)::int AS "expired", (SELECT count(*) FROM shredded)::int AS "shredded"`;
    const expired = result?.expired ?? 0;
    total += expired;
    if (expired < EXPIRE_BATCH) break;
  }
  return total;
}
