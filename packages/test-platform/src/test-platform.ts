import { microsFromUsd } from '@svc/contracts';
import { type CrtWorker, startCrtWorker } from './crt-worker';
import {
  type PlatformServices,
  type PlatformServicesOptions,
  startPlatformServices,
} from './platform-services';

/** A client of the platform: its auth.clients row and its wallet account, credited. */
export interface TestClient {
  readonly id: string;
  readonly name: string;
}

export interface TestPlatformOptions extends PlatformServicesOptions {
  /** The clients the suite's tests act for; none when absent. */
  clients?: readonly TestClient[];
  /** USD each client has in its wallet at the start (paid quotes and runs fit). */
  openingBalanceUsd: string;
}

/**
 * The services (platform-services.ts), a crt worker that ends runs as a test asks (crt-worker.ts),
 * and the suite's clients: each written into auth.clients (the gateway's `keys` names a client from
 * there) with a wallet account and its opening credit.
 */
export interface TestPlatform extends PlatformServices {
  readonly crt: CrtWorker;
}

export async function startTestPlatform(options: TestPlatformOptions): Promise<TestPlatform> {
  const services = await startPlatformServices(options);
  try {
    const crt = await startCrtWorker(services);
    for (const client of options.clients ?? []) {
      await services.prisma.client.create({ data: { id: client.id, name: client.name } });
      await services.prisma.walletAccount.create({ data: { clientId: client.id } });
      await services.prisma.ledgerEntry.create({
        data: {
          clientId: client.id,
          kind: 'credit',
          amountMicros: microsFromUsd(options.openingBalanceUsd),
          note: 'test credit',
        },
      });
    }
    return { ...services, crt };
  } catch (err) {
    await services.close();
    throw err;
  }
}
