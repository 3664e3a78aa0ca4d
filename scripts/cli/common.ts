import os from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import type { Actor } from "@/lib/audit/audit-log";
import { disconnectDb } from "@/lib/db/client";
import { stopListener } from "@/lib/db/notifications";
import { DomainError } from "@/lib/errors";
import { ZodError } from "zod";
import { prepareDatabase, scriptDatabase } from "../lib/dev-env";

// Shared plumbing of the operator CLIs: argument parsing, database, output and exit codes
// (0 ok, 1 failed, 2 bad usage).

export const cliActor = (): Actor => ({ type: "cli", label: `cli:${os.userInfo().username}` });

export class UsageError extends Error {}

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options: { ...options, json: { type: "boolean" } }, allowPositionals: true, strict: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
}

export function required(value: string | undefined, flag: string): string {
  if (!value) throw new UsageError(`${flag} is required`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T {
  if (!value || !(allowed as readonly string[]).includes(value)) throw new UsageError(`${flag} must be one of: ${allowed.join(", ")}`);
  return value as T;
}

/** Runs a CLI: prints `usage` on bad usage, a clean message on domain errors, never a stack for those. */
export async function runCli(usage: string, main: (argv: string[]) => Promise<void>): Promise<void> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") {
    console.log(usage);
    process.exit(argv.length === 0 ? 2 : 0);
  }
  // Development: .env, generated secrets, DATABASE_URL or the embedded database; production: the variables as set,
  // checked first (a wrong one is named and the CLI exits 1).
  const database = await scriptDatabase();
  let code = 0;
  try {
    await prepareDatabase(database);
    await main(argv);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`error: ${err.message}\n\n${usage}`);
      code = 2;
    } else if (err instanceof DomainError) {
      console.error(`error: ${err.message}`);
      code = 1;
    } else if (err instanceof ZodError) {
      console.error(`error: ${err.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
      code = 1;
    } else {
      console.error(err);
      code = 1;
    }
  } finally {
    await disconnectDb();
    await stopListener();
    await database.server?.stop();
  }
  process.exit(code !== 0 ? code : Number(process.exitCode ?? 0)); // a command may set exitCode (a job with failed rows)
}

export function output(json: boolean | undefined, value: unknown, human: string): void {
  console.log(json ? JSON.stringify(value, null, 2) : human);
}
