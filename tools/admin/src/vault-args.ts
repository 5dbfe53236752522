import { parseArgs } from 'node:util';

// `pnpm admin vault <subcommand>`: the vault's key rotation (docs/decisions.md "The vault").

export const VAULT_SUBCOMMANDS = ['add-key', 'rotate', 'rotation', 'retire-key'] as const;
export type VaultSubcommand = (typeof VAULT_SUBCOMMANDS)[number];

export type VaultArgs =
  | { command: 'vault'; subcommand: 'add-key'; keyringFile: string | null; keepCurrent: boolean }
  | { command: 'vault'; subcommand: 'rotate'; wait: boolean }
  | { command: 'vault'; subcommand: 'rotation' }
  | { command: 'vault'; subcommand: 'retire-key'; version: number; keyringFile: string | null };

export const VAULT_USAGE =
  'pnpm admin vault add-key [--keyring FILE] [--keep-current]\n' +
  '    Adds a key-encryption key version (32 random bytes) to the vault keyring file and makes it current\n' +
  '    (unless --keep-current); running vaults re-read the file within 5 s. FILE: --keyring, else\n' +
  "    VAULT_KEYRING_FILE, else `pnpm start`'s <DATA_DIR>/vault-keyring.json. Prints\n" +
  '    {"keyring_file","version","current_version"}; never a key.\n' +
  '  pnpm admin vault rotate [--wait]\n' +
  "    Re-wraps every stored data key to the vault's current key version (job vault.rewrap: resumable, once per\n" +
  '    version); first waits until the vault has re-read the keyring file. --wait: until the re-wrap has\n' +
  '    finished. Prints the rotation state (as `vault rotation`).\n' +
  '  pnpm admin vault rotation\n' +
  '    Prints the rotation state: the keyring versions of the vault that answered, data keys per version,\n' +
  '    the latest re-wrap (running | completed | failed, rewrapped, remaining).\n' +
  '  pnpm admin vault retire-key VERSION [--keyring FILE]\n' +
  '    Removes an old key version from the keyring file once no stored data key uses it (refused otherwise:\n' +
  '    run `vault rotate --wait` first); backups from before the re-wrap can then no longer be opened.\n' +
  '    Prints {"keyring_file","retired","versions"}.\n' +
  "    rotate, rotation and retire-key reach the vault over the bus: REDIS_URL and BUS_ENCRYPTION_KEY, else `pnpm start`'s.";

/** A usage mistake, with the text main prints (args.ts wraps it in its UsageError). */
export class VaultUsageError extends Error {}

function isSubcommand(value: string): value is VaultSubcommand {
  return VAULT_SUBCOMMANDS.some((name) => name === value);
}

/** `vault` argv after the word `vault`; `null` asks for the vault usage (help). */
export function parseVaultArgs(args: string[]): VaultArgs | null {
  const [subcommand, ...rest] = args;
  if (subcommand === undefined || subcommand === '--help' || subcommand === '-h' || subcommand === 'help') {
    return null;
  }
  if (!isSubcommand(subcommand)) {
    throw new VaultUsageError(
      `unknown vault command "${subcommand}" (vault commands: ${VAULT_SUBCOMMANDS.join(', ')})`,
    );
  }
  if (subcommand === 'add-key') {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      options: {
        keyring: { type: 'string' },
        'keep-current': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
    if (values.help) return null;
    const file = values.keyring?.trim() ?? '';
    return {
      command: 'vault',
      subcommand,
      keyringFile: file === '' ? null : file,
      keepCurrent: values['keep-current'] === true,
    };
  }
  if (subcommand === 'rotate') {
    const { values } = parseArgs({
      args: rest,
      strict: true,
      options: { wait: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
    if (values.help) return null;
    return { command: 'vault', subcommand, wait: values.wait === true };
  }
  if (subcommand === 'retire-key') return parseRetireKey(rest);
  const { values } = parseArgs({
    args: rest,
    strict: true,
    options: { help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return null;
  return { command: 'vault', subcommand };
}

function parseRetireKey(args: string[]): VaultArgs | null {
  const { values, positionals } = parseArgs({
    args,
    strict: true,
    allowPositionals: true,
    options: { keyring: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) return null;
  const [text, ...extra] = positionals;
  if (text === undefined || extra.length > 0 || !/^[1-9][0-9]{0,9}$/.test(text)) {
    throw new VaultUsageError('retire-key takes exactly one VERSION (an integer >= 1)');
  }
  const file = values.keyring?.trim() ?? '';
  return {
    command: 'vault',
    subcommand: 'retire-key',
    version: Number(text),
    keyringFile: file === '' ? null : file,
  };
}
