import type { DescribeCapabilityResponse } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { NotFoundError } from '@svc/errors';
import { toCapabilityRecord, toInputSchema } from './records';

/**
 * Spec §4.2: the record (with `execution.effective_status` derived from the raw stored
 * `machine_run_status`, §2.1) and the JSON Schema of the quote/run `input`, the source of truth
 * clients build input from. An unknown slug is a 404.
 */
export async function describeCapability(
  prisma: PrismaClient,
  slug: string,
): Promise<DescribeCapabilityResponse> {
  const row = await prisma.capability.findUnique({ where: { slug } });
  if (!row) throw new NotFoundError(`unknown capability: ${slug}`);
  return {
    ok: true,
    capability: toCapabilityRecord(row),
    input_schema: toInputSchema(row.slug, row.inputSchema),
  };
}
