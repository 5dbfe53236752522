import { z } from 'zod';
import { DateTime } from '../common';

/**
 * Key rotation (operators only, through `pnpm admin vault …`): the re-wrap of every stored data key
 * to the keyring's current version, as a resumable job.
 */
export const VaultRotationState = z.object({
  /** The keyring's current version in the vault process that answered. */
  current_version: z.number().int().min(1),
  /** Versions the keyring holds (older ones still open values until the re-wrap has finished). */
  keyring_versions: z.array(z.number().int().min(1)),
  /** Stored data keys per key version, fields and pending candidates together. */
  data_keys_by_version: z.record(z.string(), z.number().int().min(0)),
  rewrap: z
    .object({
      target_version: z.number().int().min(1),
      state: z.enum(['running', 'completed', 'failed']),
      rewrapped: z.number().int().min(0),
      remaining: z.number().int().min(0),
      started_at: DateTime,
      finished_at: DateTime.optional(),
      error: z.string().optional(),
    })
    .optional(),
});
export type VaultRotationState = z.infer<typeof VaultRotationState>;
