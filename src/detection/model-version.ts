/**
 * Version of the detector the engine expects. scripts/train-detector.ts stamps it into detector.model.json and
 * the loader refuses a model file with another version, so code and model cannot drift apart. Bump it whenever
 * features or training change.
 */
export const MODEL_VERSION = "textscan-detector-0.4.0";
