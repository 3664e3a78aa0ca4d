import { assertCentavos, type Centavos } from "./money";

// Sharing a total among parts in proportion to their weights, in integer centavos that add up exactly:
// each part gets floor(total × weight / Σ weights); the centavos left go one each to the parts with the
// largest remainders (ties: the earlier part). BigInt products, so no precision is lost on large totals.
export function shareProportionally(total: Centavos, weights: readonly Centavos[]): Centavos[] {
  assertCentavos(total, "total");
  if (weights.length === 0) throw new RangeError("No parts to share among");
  for (const w of weights) assertCentavos(w, "weight");
  const sum = weights.reduce((s, w) => s + BigInt(w), 0n);
  if (sum === 0n) throw new RangeError("The weights add up to 0");
  const exact = weights.map((w) => BigInt(total) * BigInt(w));
  const parts = exact.map((e) => e / sum);
  let left = BigInt(total) - parts.reduce((s, p) => s + p, 0n);
  const order = exact.map((e, i) => ({ i, remainder: e % sum })).sort((a, b) => (a.remainder === b.remainder ? a.i - b.i : a.remainder > b.remainder ? -1 : 1));
  for (const { i } of order) {
    if (left === 0n) break;
    parts[i]! += 1n;
    left -= 1n;
  }
  return parts.map(Number);
}
