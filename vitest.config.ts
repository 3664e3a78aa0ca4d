import path from "node:path";
import { defineConfig } from "vitest/config";

// Unit tests sit next to the code (*.test.ts); integration tests in tests/ hit a real PostgreSQL
// whose URL scripts/run-tests.ts puts in DATABASE_URL.
export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname) } },
  test: {
    include: ["lib/**/*.test.ts", "tests/**/*.test.ts", "scripts/**/*.test.ts", "sdk/node/test/**/*.test.ts", "components/**/*.test.ts", "i18n/**/*.test.ts"],
    environment: "node",
    setupFiles: ["tests/setup-env.ts"],
    fileParallelism: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
