-- E-mails the platform sends (invitation links), delivered by the worker over SMTP (lib/mail/mailer.ts).
-- CreateTable
CREATE TABLE "emails" (
    "id" TEXT NOT NULL,
    "tenant_id" TEXT NOT NULL,
    "invitation_id" TEXT,
    "to_address" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "sealed_body" TEXT,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "locked_until" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "message_id" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "emails_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "emails_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'canceled')),
    -- Only a pending e-mail keeps its body (it holds the invitation link).
    CONSTRAINT "emails_body_only_while_pending" CHECK ("status" = 'pending' OR "sealed_body" IS NULL)
);

-- CreateIndex
CREATE INDEX "emails_invitation_id_idx" ON "emails"("invitation_id");

-- CreateIndex
CREATE INDEX "emails_tenant_id_created_at_idx" ON "emails"("tenant_id", "created_at");

-- What the mailer claims: due pending e-mails, oldest due first.
CREATE INDEX "emails_due_idx" ON "emails"("next_attempt_at") WHERE "status" = 'pending';

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "emails" ADD CONSTRAINT "emails_invitation_id_fkey" FOREIGN KEY ("invitation_id") REFERENCES "invitations"("id") ON DELETE SET NULL ON UPDATE CASCADE;
