import path from 'node:path';
import { type CommandResult, runCommand } from '@svc/testkit';

const ROOT = path.resolve(__dirname, '../../../..');
const ADMIN = path.join(ROOT, 'tools/admin/bin/admin.cjs');

export type AdminCliResult = CommandResult;

/** Runs the real operator CLI (`pnpm admin …`, without pnpm's start-up) against `databaseUrl`. */
export function runAdminCli(args: readonly string[], databaseUrl: string): Promise<AdminCliResult> {
  return runCommand(process.execPath, [ADMIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}
