import { randomBytes } from "node:crypto";
import type { Role } from "@prisma/client";
import { DEFAULT_LOCALE, LOCALES } from "@/i18n/locales";
import { passwordResetUrl, requestPasswordReset } from "@/lib/auth/password-reset";
import { getEnv } from "@/lib/env";
import { DomainError } from "@/lib/errors";
import { createInvitation, invitationUrl, InviteInput } from "@/lib/tenants/invitations";
import { addMember, createTenant, getTenantBySlug, listTenants } from "@/lib/tenants/tenants";
import { cliActor, oneOf, output, parse, required, runCli, UsageError } from "./common";

const USAGE = `Usage:
  npm run tenants -- create --slug <slug> --name <name> [--owner-email <e-mail>] [--owner-name <name>] [--owner-password <pw>] [--json]
  npm run tenants -- list [--json]
  npm run tenants -- add-member --tenant <slug> --email <e-mail> --role owner|admin|support|viewer [--name <name>] [--password <pw>] [--json]
  npm run tenants -- invite --tenant <slug> --email <e-mail> --role owner|admin|support|viewer [--locale pt-BR|en] [--json]
  npm run tenants -- reset-password --email <e-mail> [--json]

invite prints an invitation link (valid 7 days, once) to send to the person; it points at NEXTAUTH_URL, else SANDBOX_BASE_URL.
With SMTP_URL set, the worker also e-mails it (in --locale, pt-BR by default).
reset-password prints a link (valid 60 minutes, once) with which the account chooses a new password — for a person who
forgot theirs on a platform that sends no e-mail (with SMTP_URL, the panel's "Forgot your password?" e-mails one).

Without --owner-password / --password a random password is generated and printed once.`;

const ROLES: readonly Role[] = ["owner", "admin", "support", "viewer"];
const generatedPassword = () => randomBytes(12).toString("base64url");

await runCli(USAGE, async (argv) => {
  const [command, ...rest] = argv;
  if (command === "create") {
    const { values } = parse(rest, {
      slug: { type: "string" },
      name: { type: "string" },
      "owner-email": { type: "string" },
      "owner-name": { type: "string" },
      "owner-password": { type: "string" },
    });
    const slug = required(values.slug, "--slug");
    const password = values["owner-password"] ?? generatedPassword();
    const email = values["owner-email"] ?? `owner@${slug}.test`;
    const { tenant, ownerCreated, ownerPasswordSet } = await createTenant(
      { slug, name: required(values.name, "--name"), owner: { email, name: values["owner-name"] ?? "Owner", password } },
      cliActor(),
    );
    // An existing account keeps its own password, unless its address was never verified (lib/tenants/tenants.ts).
    const shownPassword = ownerPasswordSet ? password : null;
    const replacedNote = ownerPasswordSet && !ownerCreated ? " (existing account never verified: its password was replaced)" : "";
    output(
      values.json,
      { tenant_id: tenant.id, slug: tenant.slug, name: tenant.name, owner: { email: email.toLowerCase(), password: shownPassword } },
      `Tenant ${tenant.name} created.\n  tenant id (X-Tenant-Id): ${tenant.id}\n  owner: ${email.toLowerCase()}\n  password: ${shownPassword ? shownPassword + replacedNote : "(existing account: unchanged)"}`,
    );
  } else if (command === "list") {
    const { values } = parse(rest, {});
    const tenants = await listTenants();
    output(
      values.json,
      tenants.map((t) => ({ tenant_id: t.id, slug: t.slug, name: t.name, created_at: t.createdAt.toISOString() })),
      tenants.map((t) => `${t.id}  ${t.slug}  ${t.name}`).join("\n") || "No tenants.",
    );
  } else if (command === "add-member") {
    const { values } = parse(rest, {
      tenant: { type: "string" },
      email: { type: "string" },
      role: { type: "string" },
      name: { type: "string" },
      password: { type: "string" },
    });
    const tenant = await getTenantBySlug(required(values.tenant, "--tenant"));
    const email = required(values.email, "--email");
    const role = oneOf(values.role, ROLES, "--role");
    const password = values.password ?? generatedPassword();
    const { userId, created, passwordSet } = await addMember(tenant.id, { email, name: values.name ?? email, password, role }, cliActor());
    const shown = passwordSet ? password : null;
    const note = passwordSet && !created ? " (existing account never verified: its password was replaced)" : "";
    output(values.json, { user_id: userId, tenant_id: tenant.id, email, role, password: shown }, `Member ${email} (${role}) added to ${tenant.slug}; password: ${shown ? shown + note : "(existing account: unchanged)"}`);
  } else if (command === "invite") {
    const { values } = parse(rest, { tenant: { type: "string" }, email: { type: "string" }, role: { type: "string" }, locale: { type: "string" } });
    const tenant = await getTenantBySlug(required(values.tenant, "--tenant"));
    const input = InviteInput.parse({ email: required(values.email, "--email"), role: oneOf(values.role, ROLES, "--role") });
    const linkBase = getEnv().NEXTAUTH_URL ?? getEnv().SANDBOX_BASE_URL;
    const locale = oneOf(values.locale ?? DEFAULT_LOCALE, LOCALES, "--locale");
    const { invitation, token } = await createInvitation(tenant.id, cliActor(), input, { mail: { linkBase, locale } });
    const url = invitationUrl(linkBase, token);
    const mailed = invitation.email_delivery === "pending" ? "\n  (the worker e-mails it too)" : "";
    output(values.json, { ...invitation, tenant_id: tenant.id, url }, `Invitation for ${invitation.email} (${invitation.role}) to ${tenant.slug}, valid until ${invitation.expires_at}:\n  ${url}${mailed}`);
  } else if (command === "reset-password") {
    const { values } = parse(rest, { email: { type: "string" } });
    const email = required(values.email, "--email").trim().toLowerCase();
    const made = await requestPasswordReset(email, null);
    if (!made) throw new DomainError("not_found", `No account has the e-mail ${email}`);
    const url = passwordResetUrl(getEnv().NEXTAUTH_URL ?? getEnv().SANDBOX_BASE_URL, made.token);
    output(values.json, { email, url, expires_at: made.expiresAt.toISOString() }, `Reset link for ${email}, valid until ${made.expiresAt.toISOString()} (once):\n  ${url}`);
  } else {
    throw new UsageError(`unknown command "${command}"`);
  }
});
