/**
 * Standardised logistic regression with Platt-style calibration: small, fast, deterministic, and its
 * probabilities stay sensible outside the training domains (no tree-style overconfidence).
 */

export interface LogisticModel {
  featureNames: string[];
  mean: number[];
  scale: number[];
  weights: number[];
  bias: number;
  /** Calibration: p = sigmoid(calibrationSlope * logit + calibrationBias). */
  calibrationSlope: number;
  calibrationBias: number;
}

export function sigmoid(z: number): number {
  if (z >= 0) return 1 / (1 + Math.exp(-z));
  const e = Math.exp(z);
  return e / (1 + e);
}

/** Uncalibrated logit; features are clipped to +-6 standard deviations so outliers cannot dominate. */
export function logit(model: LogisticModel, features: readonly number[]): number {
  let z = model.bias;
  for (let i = 0; i < model.weights.length; i++) {
    const raw = features[i] ?? 0;
    const scaled = ((Number.isFinite(raw) ? raw : 0) - (model.mean[i] ?? 0)) / (model.scale[i] || 1);
    z += (model.weights[i] ?? 0) * Math.max(-6, Math.min(6, scaled));
  }
  return z;
}

export function predictProbability(model: LogisticModel, features: readonly number[]): number {
  return sigmoid(model.calibrationSlope * logit(model, features) + model.calibrationBias);
}
