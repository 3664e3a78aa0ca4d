// Types of security-headers.mjs (plain ESM for next.config.js), for the TypeScript that reads it (lib/http/edge-server.ts).
export declare const COMMON_SECURITY_HEADERS: { key: string; value: string }[];
export declare const HSTS_OVER_HTTPS: {
  has: { type: "header"; key: string; value: string }[];
  headers: { key: string; value: string }[];
};
