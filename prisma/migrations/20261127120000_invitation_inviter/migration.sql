-- The member who sent an invitation, by user id (invited_by holds only a label): when that member is removed or
-- demoted their open links are revoked, and acceptance refuses a link whose sender can no longer invite.
ALTER TABLE "invitations" ADD COLUMN "invited_by_user_id" TEXT;

-- Links already sent and still open get their sender from the audit row written with them (member.invited, by a
-- user), so they are covered too. Any other row keeps a null sender and is accepted as before.
UPDATE "invitations" AS i
SET "invited_by_user_id" = a."actor_id"
FROM "audit_logs" AS a
WHERE a."tenant_id" = i."tenant_id"
  AND a."target_id" = i."id"
  AND a."target_type" = 'invitation'
  AND a."action" = 'member.invited'
  AND a."actor_type" = 'user'
  AND a."actor_id" IS NOT NULL
  AND i."accepted_at" IS NULL
  AND i."revoked_at" IS NULL;
