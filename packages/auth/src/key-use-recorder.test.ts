import { KeyUseRecorder } from './key-use-recorder';

describe('KeyUseRecorder', () => {
  let clock = 0;
  const now = () => clock;
  const recorders: KeyUseRecorder[] = [];
  beforeEach(() => {
    clock = 1_000_000;
  });
  afterEach(async () => {
    for (const recorder of recorders.splice(0)) await recorder.close();
  });

  function recorder(write: (ids: readonly string[]) => Promise<void>, onError = jest.fn()) {
    const made = new KeyUseRecorder({
      write,
      onError,
      flushIntervalMs: 3_600_000,
      minIntervalMs: 60_000,
      now,
    });
    recorders.push(made);
    return made;
  }

  it('writes noted keys in one batch, once per interval per key', async () => {
    const writes: string[][] = [];
    const uses = recorder(async (ids) => {
      writes.push([...ids]);
    });
    uses.note('a');
    uses.note('b');
    uses.note('a');
    await uses.flush();
    expect(writes).toEqual([['a', 'b']]);
    clock += 59_999;
    uses.note('a'); // written less than a minute ago: nothing to do
    await uses.flush();
    expect(writes).toHaveLength(1);
    clock += 1;
    uses.note('a');
    uses.note('c', new Date(clock - 10_000)); // read as used 10 s ago: skipped
    await uses.flush();
    expect(writes).toEqual([['a', 'b'], ['a']]);
  });

  it('reports a failed write and notes those keys again on their next use', async () => {
    const onError = jest.fn();
    let fail = true;
    const writes: string[][] = [];
    const uses = recorder(async (ids) => {
      if (fail) throw new Error('database down');
      writes.push([...ids]);
    }, onError);
    uses.note('a');
    await uses.flush();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ message: 'database down' }), 1);
    fail = false;
    uses.note('a');
    await uses.flush();
    expect(writes).toEqual([['a']]);
  });

  it('close() writes what is pending and ignores later notes', async () => {
    const writes: string[][] = [];
    const uses = recorder(async (ids) => {
      writes.push([...ids]);
    });
    uses.note('a');
    await uses.close();
    uses.note('b');
    await uses.flush();
    expect(writes).toEqual([['a']]);
  });
});
