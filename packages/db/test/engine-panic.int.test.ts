// Own file: after a panic the WASM instance must not be used again, and jest gives each test file
// a fresh module registry, hence a fresh instance.
import { withSchemaEngine } from '../src/migrate/engine-session';
import { adminUrl } from './test-database';

describe('schema engine panics', () => {
  it('surface as an error carrying the Rust panic message', async () => {
    await expect(
      withSchemaEngine(adminUrl(), async (engine) => {
        engine.debugPanic();
      }),
    ).rejects.toThrow(/schema engine panic: .*\n?.*debugPanic artificial panic/);
  });
});
