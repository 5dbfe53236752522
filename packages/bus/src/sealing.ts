import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Sealing of everything the bus writes to Redis that may hold client data (job payloads, RPC
 * requests and replies, events): AES-256-GCM under a key from configuration (BUS_ENCRYPTION_KEY),
 * so a Redis dump, an RDB/AOF file or a replica holds nothing readable (issue 13, finding 9). GCM also
 * authenticates: a payload altered in Redis, sealed under another key or moved to another queue
 * (the associated data binds where it belongs) does not open.
 *
 * A sealed value is `{ sealed: "v1.<key id>.<iv>.<ciphertext>.<tag>" }` (base64url parts): an object,
 * so BullMQ stores it as it stores any job data. The key id (8 hex digits of SHA-256 over the key)
 * picks the key to open with, so keys can be rotated without dropping queued jobs: every process
 * holds a list, seals with the first and opens with any (docs: README "Configuration").
 */

/** bytes: AES-256 key. */
export const BUS_KEY_BYTES = 32;
/** bytes: GCM nonce, the 96 bits NIST SP 800-38D recommends; random per message. */
const IV_BYTES = 12;
/** bytes: GCM authentication tag (the full 128 bits). */
const TAG_BYTES = 16;
const VERSION = 'v1';
/** Domain separation of the associated data, so our AAD never matches another protocol's. */
const AAD_LABEL = 'svc-bus/v1';

/** What a sealed value looks like in Redis. */
export interface SealedValue {
  sealed: string;
}

/** A value that does not open: not sealed, tampered, sealed under an unknown key or for another place. */
export class SealError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealError';
  }
}

interface BusKey {
  id: string;
  secret: Buffer;
}

function keyId(secret: Uint8Array): string {
  // A 32-bit fingerprint of a random 256-bit key: tells keys apart, reveals nothing usable.
  return createHash('sha256').update('svc-bus-key-id').update(secret).digest('hex').slice(0, 8);
}

function associatedData(context: string): Buffer {
  return Buffer.from(`${AAD_LABEL}|${context}`, 'utf8');
}

export class BusSealer {
  private readonly current: BusKey;
  private readonly byId: ReadonlyMap<string, BusKey>;

  /** `keys`: the key to seal with first, then older keys that may still open queued values. */
  constructor(keys: readonly Uint8Array[]) {
    const parsed = keys.map((key, index) => {
      if (key.byteLength !== BUS_KEY_BYTES) {
        throw new TypeError(`bus encryption key ${index + 1} must be ${BUS_KEY_BYTES} bytes`);
      }
      return { id: keyId(key), secret: Buffer.from(key) };
    });
    const [current] = parsed;
    if (current === undefined) throw new TypeError('the bus needs at least one encryption key');
    this.current = current;
    this.byId = new Map(parsed.map((key) => [key.id, key]));
  }

  /** Id of the key values are sealed with (for logs: names a key without revealing it). */
  get currentKeyId(): string {
    return this.current.id;
  }

  /** Seals `value` (JSON) for `context` (where it will be read: queue, job name, …). */
  seal(value: unknown, context: string): SealedValue {
    const json = JSON.stringify(value);
    if (json === undefined) throw new TypeError('cannot seal a value that has no JSON form');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.current.secret, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(associatedData(context));
    const ciphertext = Buffer.concat([cipher.update(json, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag();
    const parts = [VERSION, this.current.id, iv, ciphertext, tag].map((part) =>
      typeof part === 'string' ? part : part.toString('base64url'),
    );
    return { sealed: parts.join('.') };
  }

  /** The value `seal(value, context)` sealed; SealError for anything else. */
  open(raw: unknown, context: string): unknown {
    const text = sealedText(raw);
    const [version, id, iv, ciphertext, tag, extra] = text.split('.');
    if (version !== VERSION || id === undefined || iv === undefined || ciphertext === undefined) {
      throw new SealError('not a sealed bus value');
    }
    if (tag === undefined || extra !== undefined) throw new SealError('not a sealed bus value');
    const key = this.byId.get(id);
    if (key === undefined) throw new SealError(`sealed under an unknown key (id ${id})`);
    const ivBytes = Buffer.from(iv, 'base64url');
    const tagBytes = Buffer.from(tag, 'base64url');
    if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) {
      throw new SealError('not a sealed bus value');
    }
    let json: string;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key.secret, ivBytes, { authTagLength: TAG_BYTES });
      decipher.setAAD(associatedData(context));
      decipher.setAuthTag(tagBytes);
      json = Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      // GCM says only "unable to authenticate": altered, or sealed for another context.
      throw new SealError(`does not authenticate under key ${id} for this queue`);
    }
    try {
      return JSON.parse(json);
    } catch {
      throw new SealError('sealed value is not JSON');
    }
  }
}

function sealedText(raw: unknown): string {
  if (typeof raw === 'object' && raw !== null && 'sealed' in raw && typeof raw.sealed === 'string') {
    return raw.sealed;
  }
  throw new SealError('not a sealed bus value');
}

/** Where a value is read, as the associated data binds it (prefix first: one deployment's keys). */
export const sealingContext = {
  /** A job's payload (`data`) on `jobs.<name>`. */
  jobData: (prefix: string, queue: string, name: string) => `${prefix}|job|${queue}|${name}`,
  /** An RPC request (`data`) on `rpc.<service>`. */
  rpcRequest: (prefix: string, queue: string, method: string) => `${prefix}|rpc-request|${queue}|${method}`,
  /** An RPC reply (`returnvalue`), bound to its request job so replies cannot be swapped. */
  rpcReply: (prefix: string, queue: string, method: string, jobId: string) =>
    `${prefix}|rpc-reply|${queue}|${method}|${jobId}`,
  /** A pub/sub event on `channel`. */
  event: (prefix: string, channel: string) => `${prefix}|event|${channel}`,
};
