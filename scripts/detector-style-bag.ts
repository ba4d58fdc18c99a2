/**
 * Training of the style bag (src/detection/style-bag.ts): L2-regularised logistic regression over the hashed
 * n-gram vectors, fitted with AdaGrad. Deterministic: the visiting order comes from a fixed-seed LCG.
 */
import { STYLE_DIMENSIONS, type StyleBagModel, styleVector } from "../src/detection/style-bag.ts";

export const STYLE_BAG_SEED = 20_241_122;
const EPOCHS = 8;
const LEARNING_RATE = 0.1;
const L2 = 1e-5;

export interface SparseVector {
  index: Int32Array;
  value: Float64Array;
}

export function sparseStyleVector(ids: readonly number[]): SparseVector {
  const v = styleVector(ids);
  return { index: Int32Array.from(v.keys()), value: Float64Array.from(v.values()) };
}

export function fitStyleBag(vectors: SparseVector[], labels: number[], weights: number[]): StyleBagModel {
  const w = new Float64Array(STYLE_DIMENSIONS);
  const g2 = new Float64Array(STYLE_DIMENSIONS).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const meanWeight = weights.reduce((a, b) => a + b, 0) / Math.max(1, weights.length);
  let seed = STYLE_BAG_SEED;
  const random = () => {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    return seed / 4_294_967_296;
  };
  const order = vectors.map((_, i) => i);
  for (let epoch = 0; epoch < EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
    }
    for (const r of order) {
      const x = vectors[r] as SparseVector;
      let z = bias;
      for (let k = 0; k < x.index.length; k++) z += (w[x.index[k] ?? 0] ?? 0) * (x.value[k] ?? 0);
      const p = 1 / (1 + Math.exp(-z));
      const g = ((p - (labels[r] ?? 0)) * (weights[r] ?? 1)) / meanWeight;
      for (let k = 0; k < x.index.length; k++) {
        const j = x.index[k] ?? 0;
        const gj = g * (x.value[k] ?? 0) + L2 * (w[j] ?? 0);
        g2[j] = (g2[j] ?? 0) + gj * gj;
        w[j] = (w[j] ?? 0) - (LEARNING_RATE * gj) / Math.sqrt(g2[j] ?? 1);
      }
      biasG2 += g * g;
      bias -= (LEARNING_RATE * g) / Math.sqrt(biasG2);
    }
  }
  return { bias, weights: Array.from(w, (v) => Number(v.toPrecision(6))) };
}
