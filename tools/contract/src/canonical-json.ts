import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';

/**
 * The committed form of contract files: object keys sorted (recursively), arrays in their given
 * order, two-space indent, a final newline. The same data always gives the same bytes, so the
 * hash in the changelog and a git diff only change when the contract does.
 */
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

export function canonicalJson(value: unknown): string {
  return `${JSON.stringify(sortKeys(value), null, 2)}\n`;
}

/** Lower-case hex SHA-256 of a file's bytes (the changelog's `manifest_sha256`). */
export function sha256Hex(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/**
 * The file as the repository's formatter writes it (`pnpm biome check` covers contract/*.json):
 * canonical JSON first (stable keys), then biome's layout, so the committed bytes pass lint and
 * `generate` is byte-for-byte reproducible with the pinned biome.
 */
export function contractFileText(value: unknown, filePath: string, repoRoot: string): string {
  const biome = join(repoRoot, 'node_modules', '.bin', 'biome');
  return execFileSync(biome, ['format', `--stdin-file-path=${filePath}`], {
    cwd: repoRoot,
    input: canonicalJson(value),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
}
