import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { BusSealer, SealError } from '@svc/bus';
import type { Redis } from 'ioredis';

/**
 * One-time notes (issue 23 item 4): what a form action must show once on the page its redirect leads
 * to, too secret for the flash cookie or the URL (a new API key). A note is kept server-side beside
 * the session: its storage name is a hash of the session's cookie token and the note's random id, and
 * its value is sealed (AES-256-GCM, @svc/bus's sealer) under a key derived from that token, which the
 * server never stores (the database holds only its SHA-256). So Redis holds nothing readable, only the
 * browser holding the session can read the note, and reading it deletes it: a reload finds nothing.
 */

/** ms: the redirect's GET follows at once; five minutes cover a stalled network, no more. */
export const NOTE_TTL_MS = 5 * 60_000;

/** bytes of a note id: 128 random bits, so ids are never guessed (and the token is needed anyway). */
const NOTE_ID_BYTES = 16;
const NOTE_ID = /^[A-Za-z0-9_-]{22}$/;

/** Where the sealed notes live: Redis, shared by every dashboard process. */
export interface NoteStorage {
  /** Keeps `value` under `name` for `ttlMs`. */
  put(name: string, value: string, ttlMs: number): Promise<void>;
  /** The value under `name`, deleted in the same step: a second take answers null. */
  take(name: string): Promise<string | null>;
}

export interface OneTimeNotes {
  /** Seals `value` (JSON) for the session of `sessionToken`; answers the note's id (safe in a URL). */
  keep(sessionToken: string, value: unknown): Promise<string>;
  /** The value, the first time only; null when read already, expired, unknown or another session's. */
  take(sessionToken: string, noteId: string): Promise<unknown>;
}

function storageName(sessionToken: string, noteId: string): string {
  return createHash('sha256').update(`dashboard-note|${sessionToken}|${noteId}`).digest('base64url');
}

function sealerFor(sessionToken: string, noteId: string): BusSealer {
  const key = hkdfSync('sha256', sessionToken, noteId, 'svc dashboard one-time note', 32);
  return new BusSealer([new Uint8Array(key)]);
}

export function oneTimeNotes(storage: NoteStorage, ttlMs: number = NOTE_TTL_MS): OneTimeNotes {
  return {
    keep: async (sessionToken, value) => {
      const noteId = randomBytes(NOTE_ID_BYTES).toString('base64url');
      const name = storageName(sessionToken, noteId);
      const { sealed } = sealerFor(sessionToken, noteId).seal(value, `dashboard-note|${name}`);
      await storage.put(name, sealed, ttlMs);
      return noteId;
    },
    take: async (sessionToken, noteId) => {
      if (!NOTE_ID.test(noteId)) return null;
      const name = storageName(sessionToken, noteId);
      const sealed = await storage.take(name);
      if (sealed === null) return null;
      try {
        return sealerFor(sessionToken, noteId).open({ sealed }, `dashboard-note|${name}`);
      } catch (err) {
        // Altered in Redis: as good as absent.
        if (err instanceof SealError) return null;
        throw err;
      }
    },
  };
}

/**
 * Notes in Redis under `<prefix>:dashboard:note:<hash>` with a PX expiry, read with GETDEL (one
 * atomic step: two dashboard processes answering two reloads at once cannot both get the note).
 */
export function redisNoteStorage(options: { redis: Redis; prefix: string }): NoteStorage {
  const key = (name: string) => `${options.prefix}:dashboard:note:${name}`;
  return {
    put: async (name, value, ttlMs) => {
      await options.redis.set(key(name), value, 'PX', ttlMs);
    },
    take: (name) => options.redis.getdel(key(name)),
  };
}
