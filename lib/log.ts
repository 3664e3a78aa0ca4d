import pino from "pino";
import { getEnv } from "@/lib/env";

// Structured JSON logs. Secrets never reach a log line: the redact list covers the headers that carry them.
let logger: pino.Logger | undefined;

export function log(): pino.Logger {
  logger ??= pino({
    level: getEnv().LOG_LEVEL,
    redact: ["req.headers.authorization", "client_secret", "refresh_token", "password", "key"],
  });
  return logger;
}
