-- A contract leaves a pending offer when its borrower settles it (a settlement requested, full or partial) or pays it
-- off while on offer (CDC art. 52 par 2: the early payoff is not suspended by the lender negotiating the credit). Its
-- row stays, not live, with the time it left: the assignment then lists only the contracts still in it, and its totals
-- are theirs. A row not live without removed_at went with its assignment (canceled).
ALTER TABLE "assignment_contracts" ADD COLUMN "removed_at" TIMESTAMPTZ(3);
