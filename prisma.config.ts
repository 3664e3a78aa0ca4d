import "dotenv/config";
import path from "node:path";
import { defineConfig } from "prisma/config";
import { migrateAdapter } from "./prisma/migrate-adapter";

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
