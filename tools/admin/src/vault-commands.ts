import type { EnvSource } from '@svc/config';
import { loadKeyringFile } from '@svc/vault-crypto';
import { vaultAddKey } from './commands/vault-add-key';
import { vaultRetireKey } from './commands/vault-retire-key';
import { vaultRotate, vaultRotation } from './commands/vault-rotation';
import { PlatformNotFoundError, resolveBusSettings } from './platform-bus';
import type { VaultArgs } from './vault-args';
import { resolveKeyringFile } from './vault-keyring-file';
import { withVault } from './vault-rpc';

export interface VaultCommandResult {
  output: unknown;
  /** The command ran but what it reports is a failure (a re-wrap that ended failed): exit 1. */
  failed: boolean;
}

/** The keyring file's current version, when this CLI can read the file the vault reads. */
function expectedVersion(env: EnvSource, cwd: string, report: (line: string) => void): number | undefined {
  try {
    return loadKeyringFile(resolveKeyringFile(null, env, cwd)).keyring.currentVersion;
  } catch (err) {
    report(`not checking the vault's key version first: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}

/**
 * `pnpm admin vault …`: add-key edits the keyring file (no database, no bus); rotate and rotation
 * (and retire-key, which checks with the vault before editing the file) ask the running vault over
 * the platform's bus (the running `pnpm start`'s, else REDIS_URL + BUS_PREFIX + BUS_ENCRYPTION_KEY:
 * platform-bus.ts).
 */
export async function executeVault(
  args: VaultArgs,
  env: EnvSource,
  cwd: string,
  report: (line: string) => void,
): Promise<VaultCommandResult> {
  if (args.subcommand === 'add-key') {
    const output = vaultAddKey(resolveKeyringFile(args.keyringFile, env, cwd), args.keepCurrent);
    report(
      `key version ${output.version} added; running vaults use it within 5 s; next: pnpm admin vault rotate`,
    );
    return { output, failed: false };
  }
  let settings: ReturnType<typeof resolveBusSettings>;
  try {
    settings = resolveBusSettings(env, cwd);
  } catch (err) {
    if (err instanceof PlatformNotFoundError) throw new Error(`no bus to reach the vault: ${err.message}`);
    throw err;
  }
  if (args.subcommand === 'rotation') {
    return { output: await withVault(settings, vaultRotation), failed: false };
  }
  if (args.subcommand === 'retire-key') {
    const file = resolveKeyringFile(args.keyringFile, env, cwd);
    const output = await withVault(settings, (vault) => vaultRetireKey(vault, file, args.version));
    report(`key version ${args.version} removed; running vaults drop it within 5 s`);
    return { output, failed: false };
  }
  const expected = expectedVersion(env, cwd, report);
  const state = await withVault(settings, (vault) =>
    vaultRotate(vault, { expectedVersion: expected, wait: args.wait, report }),
  );
  if (state.rewrap?.state === 'failed')
    report(
      `re-wrap to version ${state.rewrap.target_version} failed: ${state.rewrap.error ?? 'see the vault log'}`,
    );
  return { output: state, failed: args.wait && state.rewrap?.state === 'failed' };
}
