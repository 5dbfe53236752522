import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

// The launcher's saved credentials (dev-key.json, dev-account.json): JSON files under DATA_DIR that
// hold a secret, so written atomically and never readable by anyone else.

/** The file's content when it parses against `schema`; null when missing, unreadable or not valid. */
export function readSecretJson<T>(file: string, schema: z.ZodType<T>): T | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null;
  }
  try {
    const parsed = schema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Atomic write (temp + rename), mode 0600 from the start: the secret is never world-readable. */
export function writeSecretJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  fs.renameSync(temp, file);
}
