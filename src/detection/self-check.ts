/**
 * Smoke check that the embedded model files load inside a compiled binary:
 *   bun build src/detection/self-check.ts --compile --outfile /tmp/dt && /tmp/dt
 */
import { detect, loadDetector } from "./index.ts";

const started = performance.now();
const { modelVersion } = loadDetector();
const loadMs = performance.now() - started;
const result = detect(
  "The committee met on Tuesday to review the budget. Several members raised concerns about the cost of the new " +
    "library wing, while others argued that the town had waited long enough. No decision was taken.",
  { sentences: false },
);
console.log(JSON.stringify({ modelVersion, loadMs: Math.round(loadMs * 10) / 10, result }));
