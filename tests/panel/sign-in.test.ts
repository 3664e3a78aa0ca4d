import { describe, expect, it } from "vitest";
import { authorizeSignIn, SIGN_IN_FAILURES_ALLOWED, TOO_MANY_ATTEMPTS } from "@/lib/panel/auth-options";
import { newTenant } from "../helpers/factory";

// Panel sign-in against guessing: after 10 wrong passwords for one e-mail, even the right one is refused for the
// window; other e-mails are not affected; a success before the limit clears the count.

describe("panel sign-in", () => {
  it("signs in with the right password and refuses a wrong one", async () => {
    const { tenant, ownerUserId } = await newTenant();
    const email = `owner@${tenant.slug}.test`;
    expect(await authorizeSignIn({ email, password: "correct horse battery" })).toMatchObject({ id: ownerUserId, email });
    expect(await authorizeSignIn({ email: email.toUpperCase(), password: "wrong" })).toBeNull();
    expect(await authorizeSignIn({ email: "nobody@example.test", password: "x" })).toBeNull();
    expect(await authorizeSignIn({ email: "not an e-mail", password: "x" })).toBeNull();
  });

  it("locks an e-mail after too many wrong passwords, and only that e-mail", async () => {
    const a = await newTenant();
    const b = await newTenant();
    const victim = `owner@${a.tenant.slug}.test`;
    const other = `owner@${b.tenant.slug}.test`;
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED - 1; i++) expect(await authorizeSignIn({ email: victim, password: `guess-${i}` })).toBeNull();
    // A success before the limit clears the count…
    expect(await authorizeSignIn({ email: victim, password: "correct horse battery" })).not.toBeNull();
    for (let i = 0; i < SIGN_IN_FAILURES_ALLOWED; i++) expect(await authorizeSignIn({ email: victim, password: `guess-${i}` })).toBeNull();
    // …past it, even the right password is refused, with a reason the form can show.
    await expect(authorizeSignIn({ email: victim, password: "correct horse battery" })).rejects.toThrow(TOO_MANY_ATTEMPTS);
    expect(await authorizeSignIn({ email: other, password: "correct horse battery" })).not.toBeNull();
  });

  it("guesses sent in parallel get no more tries than sent one by one: the right password after them is refused", async () => {
    const { tenant } = await newTenant();
    const victim = `owner@${tenant.slug}.test`;
    const burst = await Promise.allSettled(Array.from({ length: 3 * SIGN_IN_FAILURES_ALLOWED }, (_, i) => authorizeSignIn({ email: victim, password: `guess-${i}` })));
    expect(burst.filter((r) => r.status === "fulfilled")).toHaveLength(SIGN_IN_FAILURES_ALLOWED); // checked (and wrong)
    expect(burst.filter((r) => r.status === "rejected")).toHaveLength(2 * SIGN_IN_FAILURES_ALLOWED); // refused unchecked
    await expect(authorizeSignIn({ email: victim, password: "correct horse battery" })).rejects.toThrow(TOO_MANY_ATTEMPTS);
  });
});
