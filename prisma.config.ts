import "dotenv/config";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { migrateAdapter } from "./prisma/migrate-adapter";

// `prisma generate` connects nowhere, but Prisma 6.19 must resolve env("DATABASE_URL") to parse the
// schema, and when it cannot it falls back to downloading a native engine (impossible offline). So a
// bare `npx prisma generate` (and the postinstall) gets a placeholder; every other command needs the
// real variable and says so.
if (!process.env.DATABASE_URL && process.argv.includes("generate")) {
  process.env.DATABASE_URL = "postgresql://generate-only@localhost/unused";
}

// Prisma skips .env when a config file exists: dotenv/config above loads it.
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is required to run migrations");
    return migrateAdapter(url);
  },
});
