-- Whether the e-mail address of an account was proven by its owner (lib/tenants/tenants.ts). An account made by accepting an
-- invitation link is not: the link was also shown to the inviter, who could have set its password. Until proven (a
-- password reset, whose link goes to the inbox), an operator giving that account a tenant replaces its password.
ALTER TABLE "users" ADD COLUMN "email_verified_at" TIMESTAMPTZ(3);

-- Accounts made by an operator (CLI, seed) count as proven, those made by accepting an invitation do not.
UPDATE "users" u SET "email_verified_at" = u."created_at"
 WHERE NOT EXISTS (
   SELECT 1 FROM "invitations" i
    WHERE i."accepted_by" = u."id" AND abs(extract(epoch FROM (i."accepted_at" - u."created_at"))) < 60);
