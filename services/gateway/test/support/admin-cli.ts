import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../../..');
const ADMIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

export interface AdminCliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the real operator CLI (`pnpm admin …`, without pnpm's start-up) against `databaseUrl`. */
export function runAdminCli(args: readonly string[], databaseUrl: string): Promise<AdminCliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [ADMIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
