import { describe, expect, it } from "vitest";
import { clientIsCurrent, schemaLines } from "../../scripts/lib/prepare-client";

// `npm run dev` regenerates the database client only when the schema changed since the last generate: a false
// "changed" costs every start a 3 s `prisma generate`, a false "same" starts the app on a stale client.
describe("the start's generated-client check", () => {
  it("finds the client that npm install generated current", () => {
    expect(clientIsCurrent()).toBe(true);
  });

  const schema = `model A {
  id    String @id
  name  String
  @@unique([name])
  @@index([id])
}

model B {
  id String @id
}
`;

  it("ignores alignment and the order of lines within a block", () => {
    const formatted = schema.replace("id    String @id", "id String   @id").replace("  @@unique([name])\n  @@index([id])", "  @@index([id])\n  @@unique([name])");
    expect(schemaLines(formatted)).toBe(schemaLines(schema));
  });

  it("sees a new field, a changed attribute and a field moved to another model", () => {
    expect(schemaLines(schema.replace("  name  String\n", "  name  String\n  email String?\n"))).not.toBe(schemaLines(schema));
    expect(schemaLines(schema.replace("@@unique([name])", "@@index([name])"))).not.toBe(schemaLines(schema));
    const moved = schema.replace("  name  String\n", "").replace("  id String @id\n}", "  id String @id\n  name  String\n}");
    expect(schemaLines(moved)).not.toBe(schemaLines(schema));
  });
});
