// Vault process: owns schema `vault` (fields, extractions and their candidates, filled documents,
// the audit trail, rotations) and every vault value's envelope encryption (docs/decisions.md "The
// vault"). Answers `rpc.vault` (gateway; the admin CLI's rotation), processes `vault.rewrap` and the
// repeatable `vault.sweep`, re-reads its keyring file when it changes.
// Wiring only (defineService: env → logger → prisma → bus → store → start → health server): keyring
// → RPC responder → rewrap worker → sweep.
import { serveRpc, serviceClient } from '@svc/bus';
import { platformCatalog } from '@svc/contracts';
import { type Closable, defineService } from '@svc/service-kit';
import { keyringFromEnv } from '@svc/vault-crypto';
import { type VaultDeps, vaultSettings } from './domain/deps';
import { preloadFillFonts } from './domain/fill';
import { loadVaultEnv } from './env';
import { startSweep } from './handlers/document-handlers';
import { rewrapEnqueuer, startRewrapWorker } from './handlers/rewrap-job';
import { vaultHandlers } from './handlers/rpc';

defineService({
  name: 'vault',
  env: loadVaultEnv,
  needs: { database: true, bus: { catalog: platformCatalog }, objectStore: true },
  // Creation order; closed in reverse after the health server: sweep, rewrap worker, RPC responder,
  // keyring watcher, then the bus and Prisma.
  start: async ({ env, logger, prisma, bus, store }) => {
    const closables: Closable[] = [];
    // Throws KeyringError (names the variable or file and the rule, never key bytes): no start without keys.
    const keyring = keyringFromEnv(
      { VAULT_KEYRING: env.VAULT_KEYRING, VAULT_KEYRING_FILE: env.VAULT_KEYRING_FILE },
      {
        onChange: (change) =>
          logger.info(
            { currentVersion: change.currentVersion, keyVersions: change.versions },
            'vault keyring reloaded',
          ),
        onError: (err) =>
          logger.error({ err: err.message }, 'vault keyring file refused; the previous keyring stays in use'),
        onWarning: (text) => logger.warn(text),
      },
    );
    closables.push({ name: 'keyring watcher', close: () => keyring.close() });
    // The fill's Unicode fonts (≈ 5 MB) parsed now: a missing font package fails the start, not a
    // request, and the first fill does not pay ≈ 0.8 s.
    preloadFillFonts();
    logger.info(
      { currentVersion: keyring.keys.currentVersion, keyVersions: keyring.keys.versions },
      'vault keyring loaded',
    );

    const deps: VaultDeps = {
      prisma,
      keys: keyring.keys,
      store,
      uploads: serviceClient(bus, 'uploads', { timeoutMs: env.RPC_TIMEOUT_MS }),
      settings: vaultSettings(env.VAULT_EXTRACTION_TTL_HOURS, env.VAULT_DOCUMENT_RETENTION_HOURS),
      logger,
      now: () => new Date(),
    };
    const rpc = serveRpc(bus, 'vault', vaultHandlers(deps, rewrapEnqueuer(bus)));
    closables.push({ name: 'rpc', close: () => rpc.close() });
    closables.push(startRewrapWorker(bus, deps));
    closables.push(await startSweep(bus, deps, env.VAULT_SWEEP_INTERVAL_MS));
    return closables;
  },
});
