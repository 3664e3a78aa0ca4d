-- An account made through an invitation whose owner has since used a password reset link (e-mailed to the address, or
-- printed for an operator) has proven its address: 20261125110000_email_verified left it unproven.
UPDATE "users" u SET "email_verified_at" = r."first_used"
  FROM (SELECT "user_id", min("used_at") AS "first_used" FROM "password_resets" WHERE "used_at" IS NOT NULL GROUP BY "user_id") r
 WHERE r."user_id" = u."id" AND u."email_verified_at" IS NULL;
