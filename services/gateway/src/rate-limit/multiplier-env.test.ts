import { ConfigError, loadEnv } from '@svc/config';
import { GatewayEnv } from '../env';

const required = {
  DATABASE_URL: 'postgres://gateway@127.0.0.1:5432/svc',
  BUS_ENCRYPTION_KEY: 'MDEyMzQ1Njc4OWFiY2RlZjAxMjM0NTY3ODlhYmNkZWY=', // 32 bytes, base64
};
const read = (value?: string) =>
  loadEnv(GatewayEnv, value === undefined ? required : { ...required, RATE_LIMIT_MULTIPLIER: value })
    .RATE_LIMIT_MULTIPLIER;

describe('RATE_LIMIT_MULTIPLIER', () => {
  it('defaults to 1 and takes any positive number', () => {
    expect(read()).toBe(1);
    expect(read('1000')).toBe(1_000);
    expect(read(' 0.05 ')).toBe(0.05);
  });

  it.each(['0', '-1', 'abc', '1e3', '2000000'])('refuses %s, naming the variable', (value) => {
    expect(() => read(value)).toThrow(ConfigError);
    expect(() => read(value)).toThrow(/RATE_LIMIT_MULTIPLIER/);
  });
});
