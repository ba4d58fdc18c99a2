/**
 * Gradient-boosted regression trees (inference side). The trees capture what a linear model cannot: chat-tuned
 * and older base models sit on opposite sides of human text on several features (e.g. log-probability), so
 * "machine" is not one direction in feature space.
 */

/** Flat node arrays; a leaf has feature -1 and its value in `value`. */
export interface RegressionTree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  value: number[];
}

export interface BoostedTrees {
  featureNames: string[];
  baseScore: number;
  trees: RegressionTree[];
}

export function treeOutput(tree: RegressionTree, features: readonly number[]): number {
  let node = 0;
  for (;;) {
    const f = tree.feature[node] ?? -1;
    if (f < 0) return tree.value[node] ?? 0;
    const x = features[f] ?? 0;
    node =
      (Number.isFinite(x) ? x : 0) <= (tree.threshold[node] ?? 0)
        ? (tree.left[node] ?? 0)
        : (tree.right[node] ?? 0);
  }
}

/** The ensemble's logit: base score plus every tree's (already shrunk) output. */
export function boostedLogit(model: BoostedTrees, features: readonly number[]): number {
  let z = model.baseScore;
  for (const tree of model.trees) z += treeOutput(tree, features);
  return z;
}
