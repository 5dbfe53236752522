import { loadEnv } from '@svc/config';
import { VaultEnv } from './env';

const REQUIRED = {
  DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/svc',
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};

describe('VaultEnv', () => {
  it('has the documented defaults', () => {
    const env = loadEnv(VaultEnv, REQUIRED);
    expect(env).toMatchObject({
      HEALTH_PORT: 8085,
      STORAGE_DRIVER: 'fs',
      STORAGE_DIR: '.data/objects',
      VAULT_EXTRACTION_TTL_HOURS: 24,
      VAULT_DOCUMENT_RETENTION_HOURS: 24,
      VAULT_SWEEP_INTERVAL_MS: 60_000,
      RPC_TIMEOUT_MS: 3_000,
    });
    // The keyring is checked by @svc/vault-crypto at start (its messages never echo key text).
    expect(env.VAULT_KEYRING_FILE).toBeUndefined();
    expect(env.VAULT_KEYRING).toBeUndefined();
  });

  it('reads the settings', () => {
    const env = loadEnv(VaultEnv, {
      ...REQUIRED,
      VAULT_KEYRING_FILE: '/etc/vault/keyring.json',
      VAULT_EXTRACTION_TTL_HOURS: '2',
      VAULT_DOCUMENT_RETENTION_HOURS: '48',
      VAULT_SWEEP_INTERVAL_MS: '5000',
    });
    expect(env).toMatchObject({
      VAULT_KEYRING_FILE: '/etc/vault/keyring.json',
      VAULT_EXTRACTION_TTL_HOURS: 2,
      VAULT_DOCUMENT_RETENTION_HOURS: 48,
      VAULT_SWEEP_INTERVAL_MS: 5_000,
    });
  });

  it.each([
    ['VAULT_EXTRACTION_TTL_HOURS', '0'],
    ['VAULT_EXTRACTION_TTL_HOURS', '8761'],
    ['VAULT_DOCUMENT_RETENTION_HOURS', '1.5'],
    ['VAULT_SWEEP_INTERVAL_MS', '0'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadEnv(VaultEnv, { ...REQUIRED, [name]: value })).toThrow(name);
  });
});
