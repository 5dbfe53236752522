import { Interrupts } from './interrupts';

/** The signal rules of interrupts.ts (docs/decisions.md SC12), one sequence at a time. */

/** Runs `receive` for each signal, inside a guarded section when `guarded`; the actions' kinds. */
async function kinds(signals: Array<'SIGINT' | 'SIGTERM' | 'SIGHUP'>, guarded: boolean) {
  const interrupts = new Interrupts();
  const actions: string[] = [];
  const body = async () => {
    for (const signal of signals) {
      const action = interrupts.receive(signal);
      actions.push(action.kind === 'exit' ? `exit ${action.code}` : action.kind);
    }
  };
  if (guarded) await interrupts.guard(body);
  else await body();
  return { actions, aborted: interrupts.controller.signal.aborted, exitCode: interrupts.exitCode };
}

describe('svc on signals', () => {
  it('Ctrl-C aborts the command; a second Ctrl-C exits 130 at once', async () => {
    expect(await kinds(['SIGINT', 'SIGINT'], false)).toEqual({
      actions: ['abort', 'exit 130'],
      aborted: true,
      exitCode: 130,
    });
  });

  it('SIGTERM and SIGHUP end svc at once when no run is being waited for', async () => {
    expect((await kinds(['SIGTERM'], false)).actions).toEqual(['exit 143']);
    expect((await kinds(['SIGHUP'], false)).actions).toEqual(['exit 129']);
    expect((await kinds(['SIGINT', 'SIGTERM'], false)).actions).toEqual(['abort', 'exit 130']);
  });

  it("while a run is waited for, pnpm's SIGTERM after the Ctrl-C is ignored until the cancel is answered", async () => {
    expect(await kinds(['SIGINT', 'SIGTERM', 'SIGHUP'], true)).toEqual({
      actions: ['abort', 'ignore', 'ignore'],
      aborted: true,
      exitCode: 130,
    });
  });

  it('the same when the SIGTERM is taken first: the Ctrl-C is still the first one', async () => {
    expect(await kinds(['SIGTERM', 'SIGINT'], true)).toEqual({
      actions: ['abort', 'ignore'],
      aborted: true,
      exitCode: 130,
    });
    expect((await kinds(['SIGTERM', 'SIGINT', 'SIGINT'], true)).actions).toEqual([
      'abort',
      'ignore',
      'exit 130',
    ]);
  });

  it('a SIGTERM alone during a wait cancels the run too (exit 143 after the cancel)', async () => {
    expect(await kinds(['SIGTERM'], true)).toEqual({ actions: ['abort'], aborted: true, exitCode: 143 });
  });

  it('after the guarded section, a SIGTERM exits at once again', async () => {
    const interrupts = new Interrupts();
    await interrupts.guard(async () => undefined);
    expect(interrupts.receive('SIGTERM')).toEqual({ kind: 'exit', code: 143 });
  });
});
