// The customers of bench/seed.ts (also used by bench/list-cost.ts), in SQL.

// The mod-11 check digit of a digit string (CPF and numeric CNPJ), as SQL text.
const checkDigit = (digits: string) => `(
  SELECT (CASE WHEN s % 11 < 2 THEN 0 ELSE 11 - s % 11 END)::text
  FROM (SELECT sum(substr(${digits}, length(${digits}) - k + 1, 1)::int * CASE WHEN r.company THEN (k - 1) % 8 + 2 ELSE k + 1 END) AS s
        FROM generate_series(1, length(${digits})) AS k) AS w)`;

// The customers go in with one INSERT … SELECT over generate_series (a million rows in a few minutes; the API
// would take hours), in the shape lib/customers writes them:
// - id: `cus_` + 26 Crockford base32 characters like a ULID: 10 of the creation time in ms, so ids sort
//   with created_at as real ones do, + 16 from md5(tenant, n), unique because the times are;
// - created_at: spread evenly over the last 2 years (a million customers: one every ~63 s) with jitter of
//   up to 80% of the spacing, strictly increasing, so the keyset order (created_at, id) is a realistic one;
// - every 10th customer is a company (CNPJ, foundation_date), the others persons (CPF, birth_date), every
//   3rd person with an INSS payroll link; all with email, phone, address and income, so a page serializes
//   as much as a real one;
// - documents: CPF (9-digit base 100000000 + 7n) or numeric CNPJ (12-digit base 100000000000 + 7n), unique
//   per tenant and environment, with their real mod-11 check digits computed in SQL (weights 2, 3, … from
//   the right; CNPJ weights wrap after 9). They must be valid: the serializer formats the document and
//   throws (500) on an invalid one. The documents are fictitious; nothing else about them is checked.
export const INSERT_CUSTOMERS = `
INSERT INTO customers (id, tenant_id, environment, kind, document, name, birth_date, foundation_date, email, phone,
                       address, monthly_income, payroll, created_at, updated_at)
SELECT
  'cus_' || enc.time_part || enc.rand_part,
  $1, 'sandbox'::"Environment",
  CASE WHEN r.company THEN 'company' ELSE 'person' END,
  dv2.document,
  CASE WHEN r.company THEN 'Empresa Bench ' || r.g || ' Ltda' ELSE 'Cliente Bench ' || r.g END,
  CASE WHEN r.company THEN NULL ELSE date '1950-01-01' + (r.g * 37) % 18000 END,
  CASE WHEN r.company THEN date '1990-01-01' + (r.g * 13) % 12000 END,
  'cliente' || r.g || '@example.com',
  '+55119' || lpad((r.g::bigint * 7919 % 100000000)::text, 8, '0'),
  jsonb_build_object('street', 'Avenida Paulista', 'number', (r.g % 2000 + 1)::text, 'complement', NULL,
                     'district', 'Bela Vista', 'city', 'São Paulo', 'state', 'SP', 'zip_code', '01310100'),
  (150000 + (r.g::bigint * 7919) % 2000000)::bigint,
  CASE WHEN NOT r.company AND r.g % 3 = 0
       THEN jsonb_build_object('type', 'inss', 'benefit_number', (2000000000 + r.g * 10)::text) END,
  r.at, r.at
FROM (
  SELECT g, g % 10 = 0 AS company,
         date_trunc('milliseconds', now() - make_interval(secs => ($2::int - g + random() * 0.8) * (63072000.0 / $2::int))) AS at
  FROM generate_series(1, $2::int) AS g
) r
CROSS JOIN LATERAL (SELECT CASE WHEN r.company THEN (100000000000 + r.g * 7)::text ELSE (100000000 + r.g * 7)::text END AS document) AS base
CROSS JOIN LATERAL (SELECT base.document || ${checkDigit("base.document")} AS document) AS dv1
CROSS JOIN LATERAL (SELECT dv1.document || ${checkDigit("dv1.document")} AS document) AS dv2
CROSS JOIN LATERAL (
  SELECT
    (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' ORDER BY i)
       FROM generate_series(0, 9) AS i) AS time_part,
    (SELECT string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (get_byte(h, i) & 31) + 1, 1), '' ORDER BY i)
       FROM generate_series(0, 15) AS i) AS rand_part
  FROM (SELECT (extract(epoch FROM r.at) * 1000)::bigint AS ms, decode(md5($1 || ':' || r.g), 'hex') AS h) AS t
) enc`;
