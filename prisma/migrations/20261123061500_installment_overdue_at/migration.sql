-- The collection job records when it first saw an installment unpaid after its due date, so its
-- `installment.overdue` event is written once.
ALTER TABLE "installments" ADD COLUMN "overdue_at" TIMESTAMPTZ(3);
