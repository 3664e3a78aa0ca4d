-- GET /v1/customers is the API's hottest read (a page of 100 is ~60 kB of JSON). Each customer's API object is kept
-- on its row, written by PostgreSQL itself whenever the row is written: a stored generated column, so that no write
-- path (the API through Prisma, plain SQL, a data fix run by hand) can leave it behind its row, and the list only reads and
-- joins 100 stored texts instead of building them on every request (lib/customers/list-customers.ts).
--
-- customer_api_json is lib/customers/serialize.ts's toCustomerView in SQL: the same fields in the same order, the
-- document formatted, dates as YYYY-MM-DD, timestamps as ISO 8601 UTC with milliseconds, absent address/payroll as
-- null. tests/customers/list-customers.test.ts requires every listed customer to equal its own GET field by field.
-- A field added to the customer object (or a value of "Environment" renamed) means a new function and the column
-- dropped and added again.
--
-- IMMUTABLE, as a generated column requires: to_char and row_to_json are only STABLE because some of their formats
-- and input types read settings (the locale's month names, DateStyle, extra_float_digits), and the ones used here do not:
-- fixed numeric patterns over a UTC timestamp or a date, and text, bigint and jsonb values — so the same arguments
-- always give the same text.
CREATE FUNCTION customer_api_json(
  id TEXT, kind TEXT, document TEXT, name TEXT, birth_date DATE, foundation_date DATE, email TEXT, phone TEXT,
  address JSONB, monthly_income BIGINT, payroll JSONB, environment "Environment", created_at TIMESTAMPTZ, updated_at TIMESTAMPTZ
) RETURNS TEXT LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT row_to_json(v)::text FROM (SELECT
    id, 'customer' AS object, kind, document,
    CASE kind
      WHEN 'person' THEN substr(document, 1, 3) || '.' || substr(document, 4, 3) || '.' || substr(document, 7, 3) || '-' || substr(document, 10, 2)
      ELSE substr(document, 1, 2) || '.' || substr(document, 3, 3) || '.' || substr(document, 6, 3) || '/' || substr(document, 9, 4) || '-' || substr(document, 13, 2)
    END AS document_formatted,
    name,
    to_char(birth_date, 'YYYY-MM-DD') AS birth_date,
    to_char(foundation_date, 'YYYY-MM-DD') AS foundation_date,
    email, phone,
    (SELECT row_to_json(a) FROM (SELECT address->'street' AS street, address->'number' AS number,
            COALESCE(address->'complement', 'null'::jsonb) AS complement, address->'district' AS district,
            address->'city' AS city, address->'state' AS state, address->'zip_code' AS zip_code) a
      WHERE jsonb_typeof(address) = 'object') AS address,
    monthly_income,
    CASE payroll->>'type'
      WHEN 'inss' THEN (SELECT row_to_json(p) FROM (SELECT 'inss' AS type, payroll->'benefit_number' AS benefit_number) p)
      WHEN 'private' THEN (SELECT row_to_json(p) FROM (SELECT 'private' AS type, payroll->'employer_cnpj' AS employer_cnpj,
                                                              payroll->'registration' AS registration) p)
    END AS payroll,
    environment,
    to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
    to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS updated_at
  ) v
$$;

-- Written for every existing row as the column is added: the table is rewritten once, under an exclusive lock (on a
-- large production table, a maintenance window's work).
ALTER TABLE "customers" ADD COLUMN "api_json" TEXT NOT NULL GENERATED ALWAYS AS (
  customer_api_json("id", "kind", "document", "name", "birth_date", "foundation_date", "email", "phone", "address",
                    "monthly_income", "payroll", "environment", "created_at", "updated_at")
) STORED;
