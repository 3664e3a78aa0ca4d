-- Portfolio assignment: the assignee declines a pending offer (pending to declined, its contracts free again), and the
-- originator buys contracts of a settled one back (recompra: a defect or fraud found, the coobrigacao). A contract
-- bought back belongs to the originator again (active, its assignment_id cleared), its row in the assignment stays,
-- listed, not live (the contract may be offered again), with when it was bought back, for what and why. Every
-- contract bought back: the assignment is bought_back.
ALTER TABLE "assignments" ADD COLUMN "decline_reason" TEXT;
ALTER TABLE "assignments" ADD COLUMN "declined_at" TIMESTAMPTZ(3);
ALTER TABLE "assignments" ADD COLUMN "bought_back_at" TIMESTAMPTZ(3);

ALTER TABLE "assignment_contracts" ADD COLUMN "bought_back_at" TIMESTAMPTZ(3);
ALTER TABLE "assignment_contracts" ADD COLUMN "buyback_price" BIGINT;
ALTER TABLE "assignment_contracts" ADD COLUMN "buyback_reason" TEXT;
