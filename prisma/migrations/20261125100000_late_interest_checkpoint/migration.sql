-- Late interest (juros de mora) runs on what is open in each stretch of the delay. A payment while late lowers the
-- base from its day on, so each one checkpoints the late interest accrued through that day (on the face then open);
-- from there it runs on the face open now. Without it, a partial payment while late made the whole delay count on
-- the smaller remainder, and the borrower was charged less than the contract's late interest.
ALTER TABLE "installments" ADD COLUMN "late_interest_accrued" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "installments" ADD COLUMN "late_interest_accrued_on" DATE;
