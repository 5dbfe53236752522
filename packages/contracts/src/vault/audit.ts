import { z } from 'zod';
import { DateTime, Uuid } from '../common';
import { VaultFieldName } from './field-types';

/** Why a value was decrypted (a re-wrap never decrypts a value, only its data key: not audited). */
export const VaultAuditPurpose = z.enum(['fill', 'approve']);
export type VaultAuditPurpose = z.infer<typeof VaultAuditPurpose>;

/** One decryption of one value. */
export const VaultAuditEvent = z.object({
  /** Monotonic per deployment: the cursor of the next page is the last one seen. */
  event_id: z.string(),
  at: DateTime,
  purpose: VaultAuditPurpose,
  /** The field filled (fill), or the field the approved value was saved as (approve). */
  field: VaultFieldName,
  /** Key-encryption key version that unwrapped the value's data key. */
  key_version: z.number().int().min(1),
  /** The document (fill) or extraction (approve) the decryption served. */
  subject_id: Uuid,
  /** `X-Request-Id` of the API request that caused it. */
  request_id: z.string(),
});
export type VaultAuditEvent = z.infer<typeof VaultAuditEvent>;

/** `GET /api/vault/audit`: newest first; `cursor` is the `next_cursor` of the previous page. */
export const VaultAuditQuery = z
  .object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z
      .string()
      .regex(/^[0-9]{1,19}$/, 'must be a next_cursor of a previous page')
      .optional(),
  })
  .strict();
export type VaultAuditQuery = z.infer<typeof VaultAuditQuery>;

export const VaultAuditResponse = z.object({
  ok: z.literal(true),
  count: z.number().int().min(0),
  events: z.array(VaultAuditEvent),
  /** Absent on the last page. */
  next_cursor: z.string().optional(),
});
export type VaultAuditResponse = z.infer<typeof VaultAuditResponse>;
