-- The late charges a borrower signs for are frozen into the terms (lib/contracts/late-rules.ts): proposals and
-- contracts made before carried none, so they take the rates in force until now (every product: fine 2 percent once,
-- late interest 1 percent a month), and a later change of a product rates cannot reach them.
UPDATE "proposals" SET "terms" = "terms" || '{"late_charges": {"fine_rate": "0.02", "monthly_interest_rate": "0.01"}}'::jsonb
 WHERE NOT ("terms" ? 'late_charges');
UPDATE "contracts" SET "terms" = "terms" || '{"late_charges": {"fine_rate": "0.02", "monthly_interest_rate": "0.01"}}'::jsonb
 WHERE NOT ("terms" ? 'late_charges');
