import type { ServerResponse } from 'node:http';

/**
 * A valid JSON array of exactly `bytes` bytes (at least `[]`), streamed in ~64 KiB chunks with
 * back-pressure, never built in memory: crt.sh answers for big apexes run to hundreds of MB and the
 * worker must stop reading at its cap. Rows cycle over 50 000 distinct hostnames so a client that
 * reads everything still de-duplicates to a bounded set. Stops early when the client goes away.
 */

const CHUNK_BYTES = 64 * 1024;
const DISTINCT_HOSTNAMES = 50_000;
const FIRST_ENTRY_MS = Date.UTC(2020, 0, 1);

function crtShRow(apex: string, index: number): string {
  const host = `h${index % DISTINCT_HOSTNAMES}.${apex}`;
  const logged = new Date(FIRST_ENTRY_MS + index * 60_000).toISOString().slice(0, 23);
  const notBefore = logged.slice(0, 19);
  return (
    `{"issuer_ca_id":295815,"issuer_name":"C=US, O=Let's Encrypt, CN=R11","common_name":"${host}",` +
    `"name_value":"${host}\\nwww.${host}","id":${13_000_000_000 + index},"entry_timestamp":"${logged}",` +
    `"not_before":"${notBefore}","not_after":"${notBefore}","serial_number":"04${index.toString(16).padStart(32, '0')}",` +
    `"result_count":2}`
  );
}

function certSpotterIssuance(apex: string, index: number): string {
  const host = `h${index % DISTINCT_HOSTNAMES}.${apex}`;
  const notBefore = `${new Date(FIRST_ENTRY_MS + index * 60_000).toISOString().slice(0, 19)}Z`;
  const hash = index.toString(16).padStart(64, '0');
  return (
    `{"id":"${5_000_000_000 + index}","tbs_sha256":"${hash}","cert_sha256":"${hash}",` +
    `"dns_names":["${host}","www.${host}"],"pubkey_sha256":"${hash}","not_before":"${notBefore}",` +
    `"not_after":"${notBefore}","revoked":false}`
  );
}

/** Resolves on 'drain', or on 'close' when the client has gone away (then no 'drain' ever comes). */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

export async function streamHugeAnswer(
  res: ServerResponse,
  provider: 'crt.sh' | 'certspotter',
  apex: string,
  bytes: number,
): Promise<void> {
  const row = provider === 'crt.sh' ? crtShRow : certSpotterIssuance;
  res.writeHead(200, { 'content-type': 'application/json' });
  const total = Math.max(bytes, 2);
  let written = 1; // '['
  let chunk = '[';
  let index = 0;
  for (;;) {
    const piece = (index === 0 ? '' : ',') + row(apex, index);
    if (written + piece.length + 1 > total) break; // +1: the closing ']'
    chunk += piece;
    written += piece.length;
    index += 1;
    if (chunk.length >= CHUNK_BYTES) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drained(res);
      chunk = '';
    }
  }
  if (res.destroyed) return;
  // Whitespace between the last value and ']' is valid JSON and makes the size exact.
  res.end(`${chunk}${' '.repeat(total - written - 1)}]`);
}
