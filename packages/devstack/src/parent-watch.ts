// Loaded into every service the launcher starts (`node --require <its bundle> <service bundle>`,
// service-bundles.ts) and into the shared test stack's services.
// Services run in their own process group (so a terminal Ctrl-C reaches only the launcher, which
// then stops them in order); the price is that nothing stops them if the launcher itself dies
// without cleaning up (SIGKILL, OOM). This watchdog notices that (the service is re-parented, so
// its parent pid changes) and sends the service a SIGTERM: its normal graceful shutdown. Without
// it, orphans would keep the ports and the next `pnpm start` would fail to bind.

// ms between two checks; the timer is unref'd so it never keeps a service alive.
const CHECK_INTERVAL_MS = 1_000;

const launcherPid = process.ppid;
const timer = setInterval(() => {
  if (process.ppid !== launcherPid) {
    clearInterval(timer);
    process.kill(process.pid, 'SIGTERM');
  }
}, CHECK_INTERVAL_MS);
timer.unref();

export {};
