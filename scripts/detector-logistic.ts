/**
 * Training-side helpers: L2-regularised logistic regression fitted by Newton's method (deterministic, no
 * learning-rate tuning), ranking metrics, and grouped fold assignment.
 */
import type { LogisticModel } from "../src/detection/classifier.ts";

export interface FitOptions {
  l2: number;
  iterations?: number;
  /** Fixed per-row logit offsets (the model learns what to add to them). */
  offsets?: number[];
}

/** Per-feature mean and standard deviation (weighted), for standardisation. */
function standardisation(rows: number[][], weights: number[]): { mean: number[]; scale: number[] } {
  const d = rows[0]?.length ?? 0;
  const mean = new Array<number>(d).fill(0);
  const sq = new Array<number>(d).fill(0);
  let total = 0;
  rows.forEach((row, r) => {
    const w = weights[r] ?? 1;
    total += w;
    for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) + w * (row[j] ?? 0);
  });
  for (let j = 0; j < d; j++) mean[j] = (mean[j] ?? 0) / total;
  rows.forEach((row, r) => {
    const w = weights[r] ?? 1;
    for (let j = 0; j < d; j++) sq[j] = (sq[j] ?? 0) + w * ((row[j] ?? 0) - (mean[j] ?? 0)) ** 2;
  });
  const scale = sq.map((s) => Math.sqrt(s / total) || 1);
  return { mean, scale };
}

/** Solves A x = b for symmetric positive definite A (Cholesky). */
function solveSpd(a: number[][], b: number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i]?.[j] ?? 0;
      for (let k = 0; k < j; k++) s -= (l[i]?.[k] ?? 0) * (l[j]?.[k] ?? 0);
      const li = l[i] as number[];
      li[j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / (l[j]?.[j] ?? 1);
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let s = b[i] ?? 0;
    for (let k = 0; k < i; k++) s -= (l[i]?.[k] ?? 0) * (y[k] ?? 0);
    y[i] = s / (l[i]?.[i] ?? 1);
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i] ?? 0;
    for (let k = i + 1; k < n; k++) s -= (l[k]?.[i] ?? 0) * (x[k] ?? 0);
    x[i] = s / (l[i]?.[i] ?? 1);
  }
  return x;
}

function clip(v: number): number {
  return Math.max(-6, Math.min(6, v));
}

export function fitLogistic(
  featureNames: string[],
  rows: number[][],
  labels: number[],
  weights: number[],
  options: FitOptions,
): LogisticModel {
  const { mean, scale } = standardisation(rows, weights);
  const d = mean.length;
  const x = rows.map((row) =>
    row.map((v, j) => clip(((Number.isFinite(v) ? v : 0) - (mean[j] ?? 0)) / (scale[j] || 1))),
  );
  // theta = [bias, w_1..w_d]; the bias is not penalised.
  let theta = new Array<number>(d + 1).fill(0);
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  for (let iter = 0; iter < (options.iterations ?? 25); iter++) {
    const grad = new Array<number>(d + 1).fill(0);
    const hess = Array.from({ length: d + 1 }, () => new Array<number>(d + 1).fill(0));
    for (let r = 0; r < x.length; r++) {
      const xr = x[r] as number[];
      const w = (weights[r] ?? 1) / totalWeight;
      let z = (theta[0] ?? 0) + (options.offsets?.[r] ?? 0);
      for (let j = 0; j < d; j++) z += (theta[j + 1] ?? 0) * (xr[j] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const g = w * (p - (labels[r] ?? 0));
      const h = w * Math.max(p * (1 - p), 1e-9);
      const xa = [1, ...xr];
      for (let i = 0; i <= d; i++) {
        grad[i] = (grad[i] ?? 0) + g * (xa[i] ?? 0);
        const hi = hess[i] as number[];
        const hxi = h * (xa[i] ?? 0);
        for (let j = 0; j <= i; j++) hi[j] = (hi[j] ?? 0) + hxi * (xa[j] ?? 0);
      }
    }
    for (let i = 0; i <= d; i++) {
      for (let j = 0; j < i; j++) (hess[j] as number[])[i] = hess[i]?.[j] ?? 0;
      if (i > 0) {
        grad[i] = (grad[i] ?? 0) + options.l2 * (theta[i] ?? 0);
        (hess[i] as number[])[i] = (hess[i]?.[i] ?? 0) + options.l2;
      }
    }
    const step = solveSpd(hess, grad);
    theta = theta.map((t, i) => t - (step[i] ?? 0));
    if (Math.max(...step.map(Math.abs)) < 1e-7) break;
  }
  return {
    featureNames,
    mean,
    scale,
    weights: theta.slice(1),
    bias: theta[0] ?? 0,
    calibrationSlope: 1,
    calibrationBias: 0,
  };
}

/** Platt scaling: fits p = sigmoid(a * logit + b) on held-out logits. */
export function fitPlatt(
  logits: number[],
  labels: number[],
  weights: number[],
): { slope: number; bias: number } {
  const m = fitLogistic(
    ["logit"],
    logits.map((z) => [z]),
    labels,
    weights,
    { l2: 1e-6 },
  );
  // Undo standardisation: a * (z - mean) / scale + b.
  const slope = (m.weights[0] ?? 1) / (m.scale[0] ?? 1);
  return { slope, bias: m.bias - slope * (m.mean[0] ?? 0) };
}

/** Area under the ROC curve (ties count half). */
export function auroc(scores: number[], labels: number[]): number {
  const pairs = scores.map((s, i) => [s, labels[i] ?? 0] as const).sort((a, b) => a[0] - b[0]);
  let rankSum = 0;
  let positives = 0;
  let i = 0;
  while (i < pairs.length) {
    let j = i;
    while (j < pairs.length && pairs[j]?.[0] === pairs[i]?.[0]) j++;
    const avgRank = (i + j + 1) / 2;
    for (let k = i; k < j; k++) {
      if (pairs[k]?.[1] === 1) {
        rankSum += avgRank;
        positives++;
      }
    }
    i = j;
  }
  const negatives = pairs.length - positives;
  if (positives === 0 || negatives === 0) return Number.NaN;
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/** True-positive rate at the score threshold that keeps the false-positive rate at or below `fpr`. */
export function tprAtFpr(scores: number[], labels: number[], fpr: number): number {
  const negatives = scores.filter((_, i) => labels[i] === 0).sort((a, b) => b - a);
  const positives = scores.filter((_, i) => labels[i] === 1);
  if (negatives.length === 0 || positives.length === 0) return Number.NaN;
  const allowed = Math.floor(fpr * negatives.length);
  const threshold = negatives[allowed] ?? Number.NEGATIVE_INFINITY; // scores must exceed this
  return positives.filter((s) => s > threshold).length / positives.length;
}

/** Deterministic fold of a group id (FNV-1a hash), so a group never straddles folds. */
export function foldOf(group: string, folds: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < group.length; i++) {
    h ^= group.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % folds;
}
