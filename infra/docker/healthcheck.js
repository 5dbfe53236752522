// Container healthcheck: `node infra/docker/healthcheck.js <url>` exits 0 when <url> answers 2xx
// within 3 s, 1 otherwise. The image (node:20-bookworm-slim) has no curl or wget; Node 20's fetch
// does the job without adding packages. Plain CommonJS so it starts without tsx (~40 ms, every 10 s).

const url = process.argv[2];
if (!url) {
  process.stderr.write('usage: node infra/docker/healthcheck.js <url>\n');
  process.exit(2);
}

fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
  (res) => process.exit(res.ok ? 0 : 1),
  (err) => {
    process.stderr.write(`healthcheck ${url}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
