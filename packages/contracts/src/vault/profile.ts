import { z } from 'zod';
import { DateTime } from '../common';
import { VaultFieldName, VaultFieldType } from './field-types';

/** `GET /api/vault/profile` (spec §4.15): the client's vault at a glance; no values, not even masked. */
export const VaultProfileResponse = z.object({
  ok: z.literal(true),
  profile: z.object({
    fields_total: z.number().int().min(0),
    /** Count of fields per type (types without fields are left out). */
    by_type: z.partialRecord(VaultFieldType, z.number().int().min(1)),
    /** The common profile fields (VAULT_COMMON_PROFILE_FIELDS): present or missing. */
    common_fields: z.array(z.object({ name: VaultFieldName, type: VaultFieldType, present: z.boolean() })),
    pending_extractions: z.number().int().min(0),
    /** Latest create, update or delete of a field; absent for an empty vault. */
    last_changed_at: DateTime.optional(),
    /** The key version new values are wrapped with. */
    key_version: z.number().int().min(1),
    /** Fields whose data key is still wrapped by an older version (a re-wrap is due or running). */
    fields_on_older_keys: z.number().int().min(0),
  }),
});
export type VaultProfileResponse = z.infer<typeof VaultProfileResponse>;
