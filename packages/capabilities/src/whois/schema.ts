import { Apex } from '@svc/contracts';
import { z } from 'zod';

/** Input of `whois` (describe_only: listed and describable, never quoted or run). */
export const WhoisInput = z
  .object({
    domain: Apex.describe('Registrable domain to look up.'),
  })
  .strict();
export type WhoisInput = z.infer<typeof WhoisInput>;
