import type { RunRecord } from '@svc/contracts';
import type { PrismaClient } from '@svc/db';
import { NotFoundError } from '@svc/errors';
import { toRunRecord } from './run-record';

/**
 * The run if `clientId` owns it. Another client's run is the very same 404 as a missing one
 * (docs/decisions.md C7): nobody can probe for runs that are not theirs.
 */
export async function getRunForClient(
  prisma: PrismaClient,
  clientId: string,
  runId: string,
): Promise<RunRecord> {
  const run = await prisma.run.findUnique({ where: { id: runId } });
  if (!run || run.clientId !== clientId) throw new NotFoundError(`unknown run: ${runId}`);
  return toRunRecord(run);
}
