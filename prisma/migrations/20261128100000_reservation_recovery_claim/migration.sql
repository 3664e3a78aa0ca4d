-- When the recovery worker took a pending reservation call (set with its claim, cleared when the replay ends either
-- way). A retry of the same reservation replays a pending call under its own key instead of asking under a new one
-- (which the authority would refuse while the first still holds the margin), unless the worker has it in hand now.
ALTER TABLE "reservation_recoveries" ADD COLUMN "claimed_at" TIMESTAMPTZ(3);
