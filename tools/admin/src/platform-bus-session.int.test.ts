import { publishEvent, subscribeEvents } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { createTestBus, pollUntil, type TestBus, testBusEncryptionKeys, testRedisUrl } from '@svc/testkit';
import type { BusSettings } from './platform-bus';
import { type PlatformBus, withPlatformBus } from './platform-bus-session';

describe('withPlatformBus: the one bus of the CLI commands (revoke-key, the vault commands)', () => {
  let listener: TestBus<typeof platformCatalog>;
  let settings: BusSettings;
  beforeAll(() => {
    listener = createTestBus('adminbus', platformCatalog);
    settings = {
      redisUrl: testRedisUrl(),
      prefix: listener.prefix,
      encryptionKeys: testBusEncryptionKeys(),
      origin: 'the test bus',
    };
  });
  afterAll(async () => {
    await listener.close();
  });

  it("speaks on the platform's prefix with its key, and closes the bus after use", async () => {
    const heard: string[] = [];
    const subscription = subscribeEvents(listener.bus, {
      'apikey.revoked': (payload) => {
        heard.push(payload.key_id);
      },
    });
    await subscription.waitUntilReady();
    let used: PlatformBus | undefined;
    const receivers = await withPlatformBus(settings, (bus) => {
      used = bus;
      return publishEvent(bus, 'apikey.revoked', { key_id: 'abcdefghijkl' });
    });
    expect(receivers).toBe(1);
    await pollUntil(() => heard.length > 0, { what: 'the event on the listening bus', timeoutMs: 5_000 });
    expect(heard).toEqual(['abcdefghijkl']);
    expect(() => used?.redis).toThrow('is closed');
    await subscription.close();
  });

  it('closes the bus when the command fails, and throws its error', async () => {
    let used: PlatformBus | undefined;
    await expect(
      withPlatformBus(settings, async (bus) => {
        used = bus;
        throw new Error('command failed');
      }),
    ).rejects.toThrow('command failed');
    expect(() => used?.redis).toThrow('is closed');
  });
});
