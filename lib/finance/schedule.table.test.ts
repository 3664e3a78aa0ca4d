import { describe, expect, it } from "vitest";
import { computeIof } from "./iof";
import { buildSchedule, scheduleTotals } from "./schedule";
import type { AmortizationSystem, Installment } from "./schedule-types";
import { IOF_2025 } from "./test-fixtures";

// Table tests: every row of a schedule (and of its IOF) recomputed the way a borrower or an auditor
// checks it, with plain BigInt arithmetic on the figures of that row — none of the library's helpers.
//   interest     = round_half_up(opening_balance × rate)   (the first row: × its period's factor)
//   amortization = payment − interest   (Price: PMT; SAC: ⌊P/n⌋; last row: its whole opening balance)
//   closing      = opening − amortization = next row's opening; the last closes at exactly 0
//   totals       = Σ of the rows shown

type Ratio = [num: bigint, den: bigint];

// "0.0185" → 185/10000, exactly.
function ratio(text: string): Ratio {
  const [whole = "0", frac = ""] = text.split(".");
  return [BigInt(whole + frac), 10n ** BigInt(frac.length)];
}

// round_half_up(num / den) for num ≥ 0, den > 0: ½ centavo goes up.
const halfUp = (num: bigint, den: bigint): bigint => (2n * num + den) / (2n * den);

// (1+i)^t − 1 for a whole number of months t, as an exact ratio: ((b+a)^t − b^t) / b^t.
function compound([a, b]: Ratio, t: number): Ratio {
  const T = BigInt(t);
  return [(a + b) ** T - b ** T, b ** T];
}

// (1+i)^t for a whole number of months t: (b+a)^t / b^t.
function growth([a, b]: Ratio, t: number): Ratio {
  return [(a + b) ** BigInt(t), b ** BigInt(t)];
}

// Price PMT = P·i / (1 − (1+i)^−n) × delay, half-up; delay = (1+i)^(t−1) given as a ratio.
function pricePmt(principal: number, [a, b]: Ratio, n: number, [dn, dd]: Ratio): bigint {
  if (a === 0n) return halfUp(BigInt(principal) * dn, BigInt(n) * dd);
  const N = BigInt(n);
  return halfUp(BigInt(principal) * a * (a + b) ** N * dn, b * ((a + b) ** N - b ** N) * dd);
}

type Case = {
  principal: number;
  rate: string;
  n: number;
  /** First row's factor (1+i)^t − 1; default: the monthly rate. */
  first?: Ratio;
  /** Price only: (1+i)^(t−1); default 1. */
  delay?: Ratio;
};

// The expected schedule, row by row, from the figures of each row: returns the rows a person writes.
function recompute(system: AmortizationSystem, c: Case, dueDates: string[]): Installment[] {
  const rate = ratio(c.rate);
  const first = c.first ?? rate;
  const pmt = system === "price" ? pricePmt(c.principal, rate, c.n, c.delay ?? [1n, 1n]) : 0n;
  const sacAmortization = BigInt(c.principal) / BigInt(c.n);
  const rows: Installment[] = [];
  let opening = BigInt(c.principal);
  for (let k = 0; k < c.n; k += 1) {
    const [num, den] = k === 0 ? first : rate;
    const interest = halfUp(opening * num, den);
    const last = k === c.n - 1;
    const amortization = last ? opening : system === "price" ? pmt - interest : sacAmortization;
    const closing = opening - amortization;
    rows.push({
      number: k + 1,
      due_date: dueDates[k]!,
      opening_balance: Number(opening),
      interest: Number(interest),
      amortization: Number(amortization),
      payment: Number(interest + amortization),
      closing_balance: Number(closing),
    });
    opening = closing;
  }
  return rows;
}

function checkSchedule(system: AmortizationSystem, c: Case, rows: Installment[]): void {
  expect(rows).toEqual(recompute(system, c, rows.map((r) => r.due_date)));
  expect(rows.at(-1)!.closing_balance).toBe(0);
  const sum = (pick: (r: Installment) => number) => rows.reduce((s, r) => s + pick(r), 0);
  expect(scheduleTotals(rows)).toEqual({ payment: sum((r) => r.payment), interest: sum((r) => r.interest), amortization: c.principal });
}

const at = (disbursementDate: string, firstDueDate?: string) => ({ disbursementDate, firstDueDate });

describe("Price schedules, every row recomputed by hand", () => {
  // The textbook 1,000.00 at 1% a.m. over 12 months, written out (PMT 88.85): what a person gets with a
  // calculator, one row at a time. Row 12 amortizes its whole 87.96 and pays 87.96 + 0.88 = 88.84.
  it("1,000.00 at 1% × 12: the whole table", () => {
    const rows = buildSchedule("price", { principal: 100000, monthlyRate: "0.01", installments: 12, ...at("2025-01-15") });
    const table = [
      // number, opening, interest, amortization, payment, closing
      [1, 100000, 1000, 7885, 8885, 92115],
      [2, 92115, 921, 7964, 8885, 84151], // 921.15 × 1% = 9.2115 → 9.21
      [3, 84151, 842, 8043, 8885, 76108], // 8.4151 → 8.42
      [4, 76108, 761, 8124, 8885, 67984], // 7.6108 → 7.61
      [5, 67984, 680, 8205, 8885, 59779], // 6.7984 → 6.80
      [6, 59779, 598, 8287, 8885, 51492], // 5.9779 → 5.98
      [7, 51492, 515, 8370, 8885, 43122], // 5.1492 → 5.15
      [8, 43122, 431, 8454, 8885, 34668], // 4.3122 → 4.31
      [9, 34668, 347, 8538, 8885, 26130], // 3.4668 → 3.47
      [10, 26130, 261, 8624, 8885, 17506], // 2.6130 → 2.61
      [11, 17506, 175, 8710, 8885, 8796], // 1.7506 → 1.75
      [12, 8796, 88, 8796, 8884, 0], // 0.8796 → 0.88; the last row amortizes what is left
    ];
    expect(rows.map((r) => [r.number, r.opening_balance, r.interest, r.amortization, r.payment, r.closing_balance])).toEqual(table);
    checkSchedule("price", { principal: 100000, rate: "0.01", n: 12 }, rows);
  });

  it.each([
    { principal: 1_000_000, rate: "0.02", n: 24 },
    { principal: 1_234_567, rate: "0.0185", n: 96 }, // INSS cap, longest INSS term
    { principal: 50_000_000, rate: "0.0399", n: 96 },
    { principal: 100_001, rate: "0.0001", n: 120 },
    { principal: 100000, rate: "0", n: 3 }, // 333.33, 333.33, 333.34
    { principal: 7, rate: "0.05", n: 1 },
  ])("$principal centavos at $rate × $n", (c) => {
    const rows = buildSchedule("price", { principal: c.principal, monthlyRate: c.rate, installments: c.n, ...at("2026-01-31") });
    checkSchedule("price", c, rows);
  });

  // Grace of two extra whole months (first due 3 months after disbursement, t = 3): the first row's rate
  // is 1.01³ − 1 = 0.030301 (30.301 → 30.30 on 1,000.00) and PMT is the 12-month annuity × 1.01².
  it("whole-month grace: the first row compounds three months", () => {
    const rows = buildSchedule("price", { principal: 100000, monthlyRate: "0.01", installments: 12, ...at("2025-01-15", "2025-04-15") });
    expect(rows[0]).toMatchObject({ interest: 3030, payment: 9063, amortization: 6033 });
    checkSchedule("price", { principal: 100000, rate: "0.01", n: 12, first: compound(ratio("0.01"), 3), delay: growth(ratio("0.01"), 2) }, rows);
  });

  // First due Mar 1 from Jan 15: 1 month + 14 days, t = 44/30. The factor 1.01^(44/30) − 1 and the
  // delay 1.01^(14/30) are irrational; a person takes them from a calculator (here mpmath, 42 digits):
  // interest = 1,000.00 × 0.0147008… = 14.7008 → 14.70.
  it("first period of a month and 14 days: the first row's factor is 1.01^(44/30) − 1", () => {
    const rows = buildSchedule("price", { principal: 100000, monthlyRate: "0.01", installments: 12, ...at("2025-01-15", "2025-03-01") });
    const first = ratio("0.0147008282814260984184240240245022529797694");
    const delay = ratio("1.00465428542715455288952873665792302275225");
    expect(rows[0]).toMatchObject({ interest: 1470, payment: 8926 });
    checkSchedule("price", { principal: 100000, rate: "0.01", n: 12, first, delay }, rows);
  });

  // INSS, 96 months, first due 51 days out (Mar 2 → Apr 22 = 1 month + 20 days, t = 50/30): the first
  // row's interest (3.10% of the principal) exceeds the installment, so its amortization is negative —
  // the excess is capitalized and closing = opening − amortization is above opening. The row still checks.
  it("a long first period capitalizes interest: negative amortization, same row arithmetic", () => {
    const rows = buildSchedule("price", { principal: 1_035_000, monthlyRate: "0.0185", installments: 96, ...at("2026-03-02", "2026-04-22") });
    expect(rows[0]!.amortization).toBeLessThan(0);
    const first = ratio("0.0310230837707628075338234922952323709137627");
    const delay = ratio("1.01229561489520157833463278575869648592417");
    checkSchedule("price", { principal: 1_035_000, rate: "0.0185", n: 96, first, delay }, rows);
  });
});

describe("SAC schedules, every row recomputed by hand", () => {
  it.each([
    { principal: 100000, rate: "0.015", n: 3 }, // 333.33 ×2 and 333.34; interest 15.00, 10.00, 5.00
    { principal: 10_000_000, rate: "0.01", n: 10 },
    { principal: 9_876_543, rate: "0.0185", n: 84 },
    { principal: 100_003, rate: "0.0399", n: 96 },
  ])("$principal centavos at $rate × $n", (c) => {
    const rows = buildSchedule("sac", { principal: c.principal, monthlyRate: c.rate, installments: c.n, ...at("2025-03-10") });
    checkSchedule("sac", c, rows);
  });

  it("grace: only the first row's factor changes (2 months; a month and 10 days)", () => {
    const whole = buildSchedule("sac", { principal: 2_500_000, monthlyRate: "0.0185", installments: 36, ...at("2025-03-10", "2025-05-10") });
    checkSchedule("sac", { principal: 2_500_000, rate: "0.0185", n: 36, first: compound(ratio("0.0185"), 2) }, whole);
    // Mar 10 → Apr 10 + 10 days: t = 40/30; 1.015^(40/30) − 1 from mpmath.
    const days = buildSchedule("sac", { principal: 2_500_000, monthlyRate: "0.015", installments: 36, ...at("2025-03-10", "2025-04-20") });
    checkSchedule("sac", { principal: 2_500_000, rate: "0.015", n: 36, first: ratio("0.0200498343667422996938297590494333312919404") }, days);
  });
});

describe("IOF rows recomputed by hand", () => {
  // Each row: round_half_up(base × 0.000082 × min(days, 365)); daily = Σ rows; additional =
  // round_half_up(principal × 0.0038); total = daily + additional. Base = the row's amortization (no
  // grace here, so nothing capitalized). Days are counted with plain Date arithmetic.
  const dayCount = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

  it.each([
    { system: "price" as const, principal: 1_234_567, rate: "0.0185", n: 96, borrower: "PF" as const },
    { system: "sac" as const, principal: 9_876_543, rate: "0.0185", n: 24, borrower: "PJ" as const },
  ])("$system $principal × $n ($borrower)", ({ system, principal, rate, n, borrower }) => {
    const disbursementDate = "2026-03-02";
    const schedule = buildSchedule(system, { principal, monthlyRate: rate, installments: n, disbursementDate, dueDateRule: "following" });
    const iof = computeIof({ borrower, principal, disbursementDate, installments: schedule }, IOF_2025);
    const [a, b] = ratio(borrower === "PF" ? IOF_2025.dailyRatePF : IOF_2025.dailyRatePJ);
    const expected = schedule.map((row) => {
      const days = Math.min(dayCount(disbursementDate, row.due_date), 365);
      return { number: row.number, due_date: row.due_date, days, base: row.amortization, iof: Number(halfUp(BigInt(row.amortization) * BigInt(days) * a, b)) };
    });
    expect(iof.rows).toEqual(expected);
    const daily = expected.reduce((s, r) => s + r.iof, 0);
    const additional = Number(halfUp(BigInt(principal) * 38n, 10_000n));
    expect({ daily: iof.daily, additional: iof.additional, total: iof.total }).toEqual({ daily, additional, total: daily + additional });
  });
});
