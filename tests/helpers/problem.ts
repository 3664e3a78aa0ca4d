import { expect } from "vitest";

// The whole problem+json body a test expects (request_id varies per request).
export const problem = (code: string, status: number, title: string, detail: string, extra: Record<string, unknown> = {}) => ({
  type: `urn:credit-platform:problem:${code}`,
  title,
  status,
  detail,
  code,
  request_id: expect.any(String),
  ...extra,
});
