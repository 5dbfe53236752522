// The loopback crt.sh / Cert Spotter of the crt bench (@svc/testkit startFakeCtProviders), in its
// own process: building and serialising each provider answer costs CPU that must not be taken
// from the load generator's event loop, and a provider is another host in production anyway.
import { startFakeCtProviders } from '@svc/testkit';

async function main(): Promise<void> {
  const providers = await startFakeCtProviders();
  // The parent reads this one line to learn the base URLs.
  process.stdout.write(
    `${JSON.stringify({ msg: 'listening', crtShUrl: providers.crtShUrl, certSpotterUrl: providers.certSpotterUrl })}\n`,
  );
  process.once('SIGTERM', () => {
    Promise.resolve(providers.close()).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? (err.stack ?? err.message) : err);
  process.exit(1);
});
