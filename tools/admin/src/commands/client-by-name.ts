import type { PrismaClient } from '@svc/db';

/** A client name the CLI was given that auth.clients does not hold: exit 1 (runtime, not usage). */
export class UnknownClientError extends Error {
  override readonly name = 'UnknownClientError';

  constructor(clientName: string) {
    super(`unknown client: ${clientName}`);
  }
}

/** The id of the client called `clientName`; throws UnknownClientError when there is none. */
export async function clientIdByName(prisma: PrismaClient, clientName: string): Promise<string> {
  const client = await prisma.client.findUnique({ where: { name: clientName }, select: { id: true } });
  if (!client) throw new UnknownClientError(clientName);
  return client.id;
}
