import { z } from 'zod';
import { DateTime, Uuid } from '../common';
import { VAULT_VALUE_MAX_CHARACTERS, VaultFieldName, VaultFieldType } from './field-types';

/** Where a field's current value came from. */
export const VaultFieldSource = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('entered') }),
  z.object({ kind: z.literal('extraction'), extraction_id: Uuid, candidate_id: Uuid }),
]);
export type VaultFieldSource = z.infer<typeof VaultFieldSource>;

/** A field as every answer shows it: the value only ever masked (the plaintext is never returned). */
export const VaultField = z.object({
  name: VaultFieldName,
  type: VaultFieldType,
  /** Masked by type (`j***@example.com`, `DE89 **** **** **** **30 00`, `**** 1111`). */
  masked_value: z.string(),
  /** 1 when created, +1 per update: send it back as `expected_version` to update. */
  version: z.number().int().min(1),
  source: VaultFieldSource,
  /** Version of the key-encryption key that wraps this value's data key. */
  key_version: z.number().int().min(1),
  created_at: DateTime,
  updated_at: DateTime,
});
export type VaultField = z.infer<typeof VaultField>;

/**
 * `POST /api/vault/fields` (spec §4.17): creates or updates the field `name`. Without
 * `expected_version` it creates (409 if the field exists, naming its version); with it, it updates
 * only a field at exactly that version (409 otherwise, 404 if there is none).
 */
export const SaveVaultFieldRequest = z
  .object({
    name: VaultFieldName,
    type: VaultFieldType,
    /** Plaintext, validated by its type; never returned, never logged. */
    value: z
      .string()
      .min(1)
      .max(VAULT_VALUE_MAX_CHARACTERS * 4),
    expected_version: z.number().int().min(1).optional(),
  })
  .strict();
export type SaveVaultFieldRequest = z.infer<typeof SaveVaultFieldRequest>;

export const SaveVaultFieldResponse = z.object({
  ok: z.literal(true),
  /** `created` (201) or `updated` (200). */
  outcome: z.enum(['created', 'updated']),
  field: VaultField,
});
export type SaveVaultFieldResponse = z.infer<typeof SaveVaultFieldResponse>;

/** `GET /api/vault/fields` (spec §4.16): every field of the client, by name. */
export const ListVaultFieldsResponse = z.object({
  ok: z.literal(true),
  count: z.number().int().min(0),
  fields: z.array(VaultField),
});
export type ListVaultFieldsResponse = z.infer<typeof ListVaultFieldsResponse>;

export const VaultFieldNameParams = z.object({ name: VaultFieldName }).strict();

/** `DELETE /api/vault/fields/{name}`: optional guard against deleting a value someone just changed. */
export const DeleteVaultFieldQuery = z
  .object({ expected_version: z.coerce.number().int().min(1).optional() })
  .strict();

/** The field is gone: its data key destroyed with its row. */
export const DeleteVaultFieldResponse = z.object({
  ok: z.literal(true),
  deleted: z.object({ name: VaultFieldName, version: z.number().int().min(1) }),
});
export type DeleteVaultFieldResponse = z.infer<typeof DeleteVaultFieldResponse>;
