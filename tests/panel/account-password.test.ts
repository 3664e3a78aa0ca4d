import { describe, expect, it } from "vitest";
import { changePassword, isWrongCurrentPassword } from "@/lib/auth/account-password";
import { verifyPassword } from "@/lib/auth/passwords";
import { db } from "@/lib/db/client";
import { addMember } from "@/lib/tenants/tenants";
import { newTenant } from "../helpers/factory";

// Changing one's own password (Settings → Your account): the current password is required, the new one must differ;
// the change is recorded on the account (older panel sessions end: lib/panel/session.ts) and audited in every tenant
// the account belongs to.

describe("changing one's password", () => {
  it("requires the current password, refuses the same one, records the change and audits it in each tenant", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const email = `owner@${a.tenant.slug}.test`;
    await addMember(b.tenant.id, { email, name: "Owner", password: "ignored for an existing account", role: "viewer" }, { type: "cli", label: "test" });
    const user = await db().user.findUniqueOrThrow({ where: { email } });

    const wrong = await changePassword(user.id, { current_password: "not my password", new_password: "a brand new passphrase" }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ code: "validation_error", details: { errors: [{ param: "current_password", in: "body", message: "Wrong password" }] } });
    expect(isWrongCurrentPassword(wrong)).toBe(true);
    const same = await changePassword(user.id, { current_password: "correct horse battery", new_password: "correct horse battery" }).catch((e: unknown) => e);
    expect(same).toMatchObject({ code: "validation_error", details: { errors: [{ param: "new_password" }] } });
    expect(isWrongCurrentPassword(same)).toBe(false);
    expect((await db().user.findUniqueOrThrow({ where: { id: user.id } })).passwordChangedAt).toBeNull();

    const before = Date.now();
    expect(await changePassword(user.id, { current_password: "correct horse battery", new_password: "a brand new passphrase" })).toEqual({ email });
    const after = await db().user.findUniqueOrThrow({ where: { id: user.id } });
    expect(await verifyPassword(after.passwordHash, "a brand new passphrase")).toBe(true);
    expect(after.passwordChangedAt!.getTime()).toBeGreaterThanOrEqual(before - 5);
    const audit = await db().auditLog.findMany({ where: { action: "user.password_changed", targetId: user.id }, orderBy: { tenantId: "asc" } });
    expect(audit.map((r) => r.tenantId).sort()).toEqual([a.tenant.id, b.tenant.id].sort());
    expect(audit[0]).toMatchObject({ actorType: "user", actorId: user.id, actorLabel: email, metadata: { email } });
  });
});
