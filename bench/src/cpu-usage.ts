// CPU time of processes and of the whole machine over a measured phase, from /proc (Linux): on a
// shared machine a throughput alone cannot say whether a second process had a core to run on;
// the CPU seconds each process used, and how busy the machine was meanwhile, can.
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's figures (USER_HZ; 100 on every Linux the bench runs on). */
const TICKS_PER_SECOND = 100;

/** utime + stime of `pid` in s; null when it cannot be read (exited, not Linux). */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: the fields after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line: 12 and 13 after the name.
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** All cores' busy and total time so far, in ticks (/proc/stat's first line). */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const values = line.trim().split(/\s+/).slice(1).map(Number);
    const total = values.reduce((sum, v) => sum + v, 0);
    // idle and iowait are the 4th and 5th values.
    const idle = (values[3] ?? 0) + (values[4] ?? 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

export interface CpuWindow {
  /** CPU s each named process used in the window (null: unreadable). */
  processes: Record<string, number | null>;
  /** Busy share of all cores in the window, 0..1 (null: unreadable). */
  machineBusy: number | null;
}

/** Starts a window over `pids` (name → pid); `end()` reads the CPU used since. */
export function startCpuWindow(pids: Record<string, number | undefined>): { end(): CpuWindow } {
  const before = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => [name, processCpuSeconds(pid)]),
  );
  const machineBefore = machineTicks();
  return {
    end(): CpuWindow {
      const processes: Record<string, number | null> = {};
      for (const [name, pid] of Object.entries(pids)) {
        const start = before[name];
        const now = processCpuSeconds(pid);
        processes[name] = start === null || start === undefined || now === null ? null : now - start;
      }
      const machineAfter = machineTicks();
      const machineBusy =
        machineBefore === null || machineAfter === null || machineAfter.total === machineBefore.total
          ? null
          : (machineAfter.busy - machineBefore.busy) / (machineAfter.total - machineBefore.total);
      return { processes, machineBusy };
    },
  };
}
