// Prisma 6.19.3 migrations without the native schema engine (see shared/reference/prisma-offline.md).
// The WASM schema engine ("engine: js") talks to PostgreSQL through @prisma/adapter-pg, which has two bugs
// this file works around. Everything Prisma-migrate-specific lives here, so moving to Prisma 7 (once its
// migrations run offline) touches nothing else.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";

const TEXT = 25;
const TEXT_ARRAY = 1009;
// Catalog types the adapter cannot deserialize (prisma/prisma#27403): "char", name, name[].
const REMAP: Record<number, number> = { 18: TEXT, 19: TEXT, 1003: TEXT_ARRAY };

function remapFields(result: unknown): unknown {
  const r = result as { fields?: { dataTypeID: number }[] } | undefined;
  for (const f of r?.fields ?? []) {
    const to = REMAP[f.dataTypeID];
    if (to !== undefined) f.dataTypeID = to;
  }
  return result;
}

/** A pg.Client that reports catalog "char"/name columns as text. Keeps both call forms working:
 *  pg.Pool calls query(text, values, callback); the adapter awaits query(config, values). */
class CatalogSafeClient extends pg.Client {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override query(...args: any[]): any {
    const cb = typeof args[args.length - 1] === "function" ? args.pop() : undefined;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const p = (super.query as any).apply(this, args) as Promise<unknown>;
    if (cb) {
      p.then((res) => cb(null, remapFields(res)), (err: unknown) => cb(err));
      return undefined;
    }
    return p.then(remapFields);
  }
}

function poolFor(connectionString: string): pg.Pool {
  // allowExitOnIdle: idle connections must not hold the CLI open for pg-pool's 10 s idle timeout.
  return new pg.Pool({ connectionString, Client: CatalogSafeClient as unknown as typeof pg.Client, max: 2, allowExitOnIdle: true });
}

class MigrateAdapterFactory extends PrismaPg {
  constructor(private readonly connectionString: string) {
    super(poolFor(connectionString));
  }

  // The stock version connects to the MAIN database when given a connection string, and drops the
  // shadow database before closing its pool. Create a throw-away database, use it, close, then drop.
  override async connectToShadowDb() {
    const name = `prisma_shadow_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
    const admin = new pg.Client({ connectionString: this.connectionString });
    await admin.connect();
    await admin.query(`CREATE DATABASE "${name}"`);
    await admin.end();
    const shadowUrl = new URL(this.connectionString);
    shadowUrl.pathname = `/${name}`;
    const shadow = new PrismaPg(poolFor(shadowUrl.toString()));
    const adapter = await shadow.connect();
    const dispose = adapter.dispose.bind(adapter);
    return Object.assign(adapter, {
      dispose: async () => {
        await dispose();
        await (adapter.underlyingDriver() as pg.Pool).end().catch(() => undefined);
        const dropper = new pg.Client({ connectionString: this.connectionString });
        await dropper.connect();
        await dropper.query(`DROP DATABASE IF EXISTS "${name}"`);
        await dropper.end();
      },
    });
  }
}

export function migrateAdapter(connectionString: string): MigrateAdapterFactory {
  return new MigrateAdapterFactory(connectionString);
}
