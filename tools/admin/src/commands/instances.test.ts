import type { InstanceRecord } from '@svc/devstack';
import { mergeInstances, parseInstanceId } from './instances';

function record(service: string, pid: number, startedBy = 'pnpm start'): InstanceRecord {
  return {
    service,
    pid,
    host: 'devbox',
    healthUrl: `http://127.0.0.1:${20_000 + pid}`,
    startedBy,
    startedAt: '2026-12-07T10:00:00.000Z',
  };
}

describe('pnpm admin instances: who runs, and where its health server answers', () => {
  it('reads host and pid out of a bus presence id (`<host>-<pid>-<random>`, hosts may hold dashes)', () => {
    expect(parseInstanceId('devbox-1234-0a1b2c')).toEqual({ host: 'devbox', pid: 1234 });
    expect(parseInstanceId('ip-10-0-0-7-99-ffffff')).toEqual({ host: 'ip-10-0-0-7', pid: 99 });
    expect(parseInstanceId('no-pid-here')).toBeUndefined();
  });

  it('lists every record with its address and whether it reports on the bus, then bus-only instances', () => {
    const rows = mergeInstances(
      [record('worker', 40, 'pnpm worker'), record('gateway', 30), record('worker', 20), record('vault', 10)],
      {
        vault: [], // its record is there, but it does not report ready
        worker: ['devbox-20-aaaaaa', 'devbox-40-bbbbbb', 'otherhost-7-cccccc'],
      },
    );
    expect(rows).toEqual([
      {
        service: 'vault',
        host: 'devbox',
        pid: 10,
        health_url: 'http://127.0.0.1:20010',
        on_bus: false,
        started_by: 'pnpm start',
      },
      {
        service: 'worker',
        host: 'devbox',
        pid: 20,
        health_url: 'http://127.0.0.1:20020',
        on_bus: true,
        started_by: 'pnpm start',
      },
      {
        service: 'worker',
        host: 'devbox',
        pid: 40,
        health_url: 'http://127.0.0.1:20040',
        on_bus: true,
        started_by: 'pnpm worker',
      },
      // Started on another machine: on the bus, address unknown here.
      { service: 'worker', host: 'otherhost', pid: 7, health_url: null, on_bus: true, started_by: null },
      // The gateway reports no presence: neither true nor false.
      {
        service: 'gateway',
        host: 'devbox',
        pid: 30,
        health_url: 'http://127.0.0.1:20030',
        on_bus: null,
        started_by: 'pnpm start',
      },
    ]);
  });

  it('says nothing about the bus when it could not be read', () => {
    expect(mergeInstances([record('worker', 20)], undefined)).toEqual([
      expect.objectContaining({ service: 'worker', pid: 20, on_bus: null }),
    ]);
  });
});
