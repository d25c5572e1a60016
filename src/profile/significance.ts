// Whether two sets of timing samples differ by more than their noise: the Mann–Whitney U test
// (Wilcoxon rank-sum), two-sided, as pyperf and criterion use a significance test before calling a
// change real. It assumes nothing of the samples' distribution (timings are skewed, with outliers
// from interrupts and GC), only that each sample is independent.
//
// The p-value is exact (the distribution of U counted over every ordering) when both sides have at
// most EXACT_MAX samples and no value appears on both sides; otherwise it is the normal
// approximation with the variance corrected for ties and a continuity correction.

const EXACT_MAX = 20;

/** Two-sided p-value of the Mann–Whitney U test that `a` and `b` come from the same distribution; 1 when a side is empty. */
export function mannWhitneyP(a: readonly number[], b: readonly number[]): number {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return 1;
  const { u, tieTerm, tiedAcross } = uStatistic(a, b);
  if (!tiedAcross && m <= EXACT_MAX && n <= EXACT_MAX) return exactP(u, m, n);
  const mean = (m * n) / 2;
  const variance = ((m * n) / 12) * (m + n + 1 - tieTerm / ((m + n) * (m + n - 1)));
  if (variance <= 0) return 1;
  const z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
  return Math.min(1, 2 * normalUpperTail(z));
}

/**
 * U of `a` (pairs where a's value is above b's, a tie counting half), the ties' Σ(t³ - t) over the
 * pooled ranks, and whether a value appears on both sides (ties within one side leave U as it is).
 */
function uStatistic(a: readonly number[], b: readonly number[]): { u: number; tieTerm: number; tiedAcross: boolean } {
  const pooled = [...a.map((v) => ({ v, fromA: true })), ...b.map((v) => ({ v, fromA: false }))].sort((x, y) => x.v - y.v);
  let rankSumA = 0;
  let tieTerm = 0;
  let tiedAcross = false;
  for (let i = 0; i < pooled.length; ) {
    let j = i;
    while (j < pooled.length && pooled[j]!.v === pooled[i]!.v) j++;
    const rank = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) if (pooled[k]!.fromA) rankSumA += rank;
    const t = j - i;
    tieTerm += t * t * t - t;
    if (pooled.slice(i, j).some((x) => x.fromA) && pooled.slice(i, j).some((x) => !x.fromA)) tiedAcross = true;
    i = j;
  }
  return { u: rankSumA - (a.length * (a.length + 1)) / 2, tieTerm, tiedAcross };
}

/** Exact two-sided p-value of U = `u` for sides of `m` and `n` samples without ties. */
function exactP(u: number, m: number, n: number): number {
  // ways[i][j][k]: orderings of i a-values and j b-values with U = k; ways(i, j) = ways(i-1, j) shifted by j + ways(i, j-1)
  let prev: Float64Array[] = Array.from({ length: n + 1 }, () => Float64Array.of(1));
  for (let i = 1; i <= m; i++) {
    const row: Float64Array[] = [Float64Array.of(1)];
    for (let j = 1; j <= n; j++) {
      const w = new Float64Array(i * j + 1);
      prev[j]!.forEach((c, k) => (w[k + j]! += c));
      row[j - 1]!.forEach((c, k) => (w[k]! += c));
      row.push(w);
    }
    prev = row;
  }
  const dist = prev[n]!;
  const total = dist.reduce((s, c) => s + c, 0);
  const low = Math.min(u, m * n - u);
  let tail = 0;
  for (let k = 0; k <= low; k++) tail += dist[k]!;
  return Math.min(1, (2 * tail) / total);
}

/** P(Z > z) for a standard normal Z (Abramowitz and Stegun 7.1.26, error below 1.5e-7). */
function normalUpperTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return (poly * Math.exp(-x * x)) / 2;
}
