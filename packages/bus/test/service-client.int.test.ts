import { memoryLogger } from '@svc/log';
import { type Bus, createBus, type RpcServer, serveRpc } from '../src';
import { busKeys, deletePrefix, redisUrl, uniquePrefix } from './helpers';
import { type ParityCatalog, parityCatalog, registryHandlers, transportCases } from './transport-cases';

// The transport cases over Redis: what the in-memory transport's unit suite runs too
// (src/rpc/in-memory-transport.test.ts), so the two cannot drift apart unnoticed.
const prefix = uniquePrefix('client');
let bus: Bus<ParityCatalog>;
let server: RpcServer;

beforeAll(async () => {
  bus = createBus({
    catalog: parityCatalog,
    redisUrl,
    prefix,
    logger: memoryLogger().logger,
    encryptionKeys: busKeys,
  });
  server = serveRpc(bus, 'registry', registryHandlers);
  await server.waitUntilReady();
});

afterAll(async () => {
  await server.close();
  await bus.close();
  await deletePrefix(prefix);
});

describe('serviceClient over Redis', () => {
  transportCases({ carrier: () => bus });
});
