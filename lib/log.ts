import pino from "pino";
import { getEnv } from "@/lib/env";

// Structured JSON logs. Secrets never reach a log line: the redact list covers the headers that carry them.
const holder = globalThis as unknown as { __cpLogger?: pino.Logger };

export function log(): pino.Logger {
  holder.__cpLogger ??= pino({
    level: getEnv().LOG_LEVEL,
    redact: ["req.headers.authorization", "client_secret", "refresh_token", "password", "key"],
  });
  return holder.__cpLogger;
}

/** Tests read what was logged: every line goes to `write` as JSON text. */
export function captureLogsForTests(write: (line: string) => void, level: pino.Level = "info"): void {
  holder.__cpLogger = pino(
    { level, redact: ["req.headers.authorization", "client_secret", "refresh_token", "password", "key"] },
    { write },
  );
}
