-- "Forgot your password?" (lib/auth/password-reset.ts): reset links, the password's change time (older panel
-- sessions are no longer honoured), and e-mails that belong to an account rather than a tenant.
ALTER TABLE "users" ADD COLUMN "password_changed_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "password_resets" (
    "id" TEXT NOT NULL,
    "user_id" TEXT NOT NULL,
    "token_hash" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "used_at" TIMESTAMPTZ(3),

    CONSTRAINT "password_resets_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "password_resets_token_hash_key" ON "password_resets"("token_hash");

-- CreateIndex
CREATE INDEX "password_resets_user_id_idx" ON "password_resets"("user_id");

-- AddForeignKey
ALTER TABLE "password_resets" ADD CONSTRAINT "password_resets_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

ALTER TABLE "emails" ALTER COLUMN "tenant_id" DROP NOT NULL;
ALTER TABLE "emails" ADD COLUMN "password_reset_id" TEXT;

-- CreateIndex
CREATE INDEX "emails_password_reset_id_idx" ON "emails"("password_reset_id");

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_password_reset_id_fkey" FOREIGN KEY ("password_reset_id") REFERENCES "password_resets"("id") ON DELETE SET NULL ON UPDATE CASCADE;
