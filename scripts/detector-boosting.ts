/**
 * Training of gradient-boosted trees for logistic loss (Newton leaf values, histogram split search over
 * quantile bins). Deterministic: no row or feature sampling.
 */
import type { BoostedTrees, RegressionTree } from "../src/detection/trees.ts";

export interface BoostingOptions {
  trees: number;
  depth: number;
  learningRate: number;
  /** Minimum summed hessian in a leaf (regularises small leaves). */
  minChildWeight: number;
  /** L2 penalty on leaf values. */
  lambda: number;
  bins: number;
  /**
   * Per-feature monotone constraint: +1 the score may only rise with the feature, -1 only fall, 0 free
   * (XGBoost-style: a split must order its children's values, and their subtrees inherit the bounds).
   */
  monotone?: number[];
}

export const DEFAULT_BOOSTING: BoostingOptions = {
  trees: 200,
  depth: 3,
  learningRate: 0.1,
  minChildWeight: 5,
  lambda: 1,
  bins: 32,
};

/** Quantile cut points of each feature (weighted by rows, not sample weights). */
function cutPoints(rows: number[][], d: number, bins: number): number[][] {
  const cuts: number[][] = [];
  for (let j = 0; j < d; j++) {
    const values = rows.map((r) => clean(r[j])).sort((a, b) => a - b);
    const c: number[] = [];
    for (let b = 1; b < bins; b++) {
      const v = values[Math.floor((b * values.length) / bins)] ?? 0;
      if (c.length === 0 || v > (c[c.length - 1] ?? 0)) c.push(v);
    }
    cuts.push(c);
  }
  return cuts;
}

function clean(x: number | undefined): number {
  return x !== undefined && Number.isFinite(x) ? x : 0;
}

function binOf(cuts: number[], x: number): number {
  let lo = 0;
  let hi = cuts.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (x <= (cuts[mid] ?? 0)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

export function fitBoostedTrees(
  featureNames: string[],
  rows: number[][],
  labels: number[],
  weights: number[],
  options: BoostingOptions = DEFAULT_BOOSTING,
): BoostedTrees {
  const n = rows.length;
  const d = featureNames.length;
  const cuts = cutPoints(rows, d, options.bins);
  const binned = cuts.map((c, j) => Uint8Array.from(rows.map((r) => binOf(c, clean(r[j])))));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const w = weights.map((x) => (x * n) / totalWeight);
  let positive = 0;
  labels.forEach((y, i) => {
    positive += y * (w[i] ?? 0);
  });
  const prior = Math.min(0.999, Math.max(0.001, positive / n));
  const baseScore = Math.log(prior / (1 - prior));
  const score = new Float64Array(n).fill(baseScore);
  const grad = new Float64Array(n);
  const hess = new Float64Array(n);
  const trees: RegressionTree[] = [];

  for (let t = 0; t < options.trees; t++) {
    for (let i = 0; i < n; i++) {
      const p = 1 / (1 + Math.exp(-(score[i] ?? 0)));
      grad[i] = (w[i] ?? 0) * (p - (labels[i] ?? 0));
      hess[i] = (w[i] ?? 0) * Math.max(p * (1 - p), 1e-6);
    }
    const tree: RegressionTree = { feature: [], threshold: [], left: [], right: [], value: [] };
    const leafOf = new Int32Array(n);
    const monotone = options.monotone ?? [];
    const leafValue = (g: number, h: number, lo: number, hi: number) =>
      Math.min(hi, Math.max(lo, -g / (h + options.lambda)));
    const grow = (members: Int32Array, depth: number, lo: number, hi: number): number => {
      const node = tree.feature.length;
      tree.feature.push(-1);
      tree.threshold.push(0);
      tree.left.push(-1);
      tree.right.push(-1);
      let g = 0;
      let h = 0;
      for (const i of members) {
        g += grad[i] ?? 0;
        h += hess[i] ?? 0;
      }
      tree.value.push(leafValue(g, h, lo, hi) * options.learningRate);
      if (depth >= options.depth || members.length < 2) {
        for (const i of members) leafOf[i] = node;
        return node;
      }
      const parentGain = (g * g) / (h + options.lambda);
      let bestGain = 1e-9;
      let bestFeature = -1;
      let bestBin = -1;
      for (let j = 0; j < d; j++) {
        const nb = (cuts[j]?.length ?? 0) + 1;
        if (nb < 2) continue;
        const gb = new Float64Array(nb);
        const hb = new Float64Array(nb);
        const col = binned[j] as Uint8Array;
        for (const i of members) {
          const b = col[i] ?? 0;
          gb[b] = (gb[b] ?? 0) + (grad[i] ?? 0);
          hb[b] = (hb[b] ?? 0) + (hess[i] ?? 0);
        }
        let gl = 0;
        let hl = 0;
        for (let b = 0; b < nb - 1; b++) {
          gl += gb[b] ?? 0;
          hl += hb[b] ?? 0;
          const gr = g - gl;
          const hr = h - hl;
          if (hl < options.minChildWeight || hr < options.minChildWeight) continue;
          const direction = monotone[j] ?? 0;
          if (direction !== 0) {
            const wl = leafValue(gl, hl, lo, hi);
            const wr = leafValue(gr, hr, lo, hi);
            if (direction > 0 ? wl > wr : wl < wr) continue;
          }
          const gain = (gl * gl) / (hl + options.lambda) + (gr * gr) / (hr + options.lambda) - parentGain;
          if (gain > bestGain) {
            bestGain = gain;
            bestFeature = j;
            bestBin = b;
          }
        }
      }
      if (bestFeature < 0) {
        for (const i of members) leafOf[i] = node;
        return node;
      }
      const col = binned[bestFeature] as Uint8Array;
      const leftMembers = members.filter((i) => (col[i] ?? 0) <= bestBin);
      const rightMembers = members.filter((i) => (col[i] ?? 0) > bestBin);
      tree.feature[node] = bestFeature;
      tree.threshold[node] = cuts[bestFeature]?.[bestBin] ?? 0;
      // Children of a constrained split are bounded by the midpoint of their values, so no deeper split can
      // invert the order.
      let leftLo = lo;
      let leftHi = hi;
      let rightLo = lo;
      let rightHi = hi;
      const direction = monotone[bestFeature] ?? 0;
      if (direction !== 0) {
        const sum = (idx: Int32Array, arr: Float64Array) => idx.reduce((a, i) => a + (arr[i] ?? 0), 0);
        const wl = leafValue(sum(leftMembers, grad), sum(leftMembers, hess), lo, hi);
        const wr = leafValue(sum(rightMembers, grad), sum(rightMembers, hess), lo, hi);
        const mid = (wl + wr) / 2;
        if (direction > 0) {
          leftHi = mid;
          rightLo = mid;
        } else {
          leftLo = mid;
          rightHi = mid;
        }
      }
      tree.left[node] = grow(leftMembers, depth + 1, leftLo, leftHi);
      tree.right[node] = grow(rightMembers, depth + 1, rightLo, rightHi);
      return node;
    };
    grow(
      Int32Array.from({ length: n }, (_, i) => i),
      0,
      Number.NEGATIVE_INFINITY,
      Number.POSITIVE_INFINITY,
    );
    for (let i = 0; i < n; i++) score[i] = (score[i] ?? 0) + (tree.value[leafOf[i] ?? 0] ?? 0);
    trees.push(roundTree(tree));
  }
  return { featureNames, baseScore, trees };
}

/** Seven significant digits keep the model file small; thresholds stay exact so no split moves. */
function roundTree(tree: RegressionTree): RegressionTree {
  return { ...tree, value: tree.value.map((x) => Number(x.toPrecision(7))) };
}
