import { existsSync, mkdirSync, rmSync, utimesSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error — plain JavaScript module (scripts/server.mjs and scripts/dev.mjs run it without a TypeScript loader)
import { compileTs } from "../../scripts/lib/compile-ts.mjs";

// The compiler behind `npm start` and `npm run dev` (scripts/lib/compile-ts.mjs): an entry's build lands in a folder
// named by its content, the same for the same sources, even when several processes compile it at once.

const compile = compileTs as (entry: string, options?: { splitting?: boolean }) => Promise<string>;

describe("compileTs", () => {
  it("gives the same module for the same sources, also when compiled concurrently, and it loads", async () => {
    const urls = await Promise.all([compile("lib/http/app-server.ts"), compile("lib/http/app-server.ts"), compile("lib/http/app-server.ts")]);
    expect(new Set(urls).size).toBe(1);
    expect(existsSync(fileURLToPath(urls[0]!))).toBe(true);
    expect(urls[0]).toMatch(/node_modules\/\.cache\/credit-platform\/app-server-[0-9a-f]{16}\/app-server\.mjs$/);
    const mod = (await import(urls[0]!)) as { startAppServer?: unknown };
    expect(typeof mod.startAppServer).toBe("function");
  });

  it("keeps the dev script's dynamic imports as chunks (the seed's database client loads only when reached)", async () => {
    const url = await compile("scripts/start-demo.ts", { splitting: true });
    const { readFileSync, readdirSync } = await import("node:fs");
    const path = await import("node:path");
    const file = fileURLToPath(url);
    const entry = readFileSync(file, "utf8");
    expect(entry).not.toMatch(/from\s+["']@prisma\/client["']/);
    expect(readdirSync(path.dirname(file)).filter((f) => f.endsWith(".mjs")).length).toBeGreaterThan(1);
  });

  it("removes its own builds of other sources a day old, and nothing else", async () => {
    const cache = path.join(process.cwd(), "node_modules", ".cache", "credit-platform");
    const stale = path.join(cache, "app-server-0000000000000000");
    const staged = path.join(cache, "app-server-0000000000000001.4242");
    const fresh = path.join(cache, "app-server-0000000000000002");
    const other = path.join(cache, "app-server-notes");
    for (const dir of [stale, staged, fresh, other]) mkdirSync(dir, { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600_000);
    for (const dir of [stale, staged, other]) utimesSync(dir, twoDaysAgo, twoDaysAgo);
    await compile("lib/http/app-server.ts");
    expect([stale, staged, fresh, other].map((dir) => existsSync(dir))).toEqual([false, false, true, true]);
    for (const dir of [fresh, other]) rmSync(dir, { recursive: true });
  });
});
