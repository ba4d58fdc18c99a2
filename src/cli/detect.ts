import { readFileSync } from "node:fs";
import { type DetectionResult, detect, UnsupportedLanguageError, type Verdict } from "../detection/index.ts";
import { inProcessDetector } from "../detector/index.ts";
import { ServiceError } from "../errors.ts";
import { createAiTextScan } from "../scans/index.ts";
import { checkedWordCount } from "../scans/input.ts";
import { type Command, type CommandInput, UsageError } from "./command.ts";

const COLOURS: Record<Verdict, string> = { ai: "\x1b[31m", mixed: "\x1b[33m", human: "\x1b[32m" };
const RESET = "\x1b[0m";

export const detectCommand: Command = {
  name: "detect",
  summary:
    "Score a text file (or - for standard input) locally, with no server. With --workspace the scan is saved " +
    "there (source cli) and charged like an API scan.",
  args: "FILE|-",
  options: {
    workspace: {
      type: "string",
      description: "Save the scan in this workspace (charged 1 credit/word; needs --data-dir).",
      valueName: "ID",
    },
    title: { type: "string", description: "Scan title, with --workspace.", valueName: "TITLE" },
    language: { type: "string", description: "ISO 639-1 code; detected when omitted.", valueName: "CODE" },
    json: { type: "boolean", description: "Print the API's result object as JSON." },
    "no-sentences": { type: "boolean", description: "Leave out per-sentence results." },
    color: { type: "boolean", description: "Colour sentences even when not on a terminal." },
  },
  usesStore: true,
  async run({ values, positionals, out, context, config }) {
    const file = positionals[0];
    if (!file) throw new UsageError("a FILE (or - for standard input) is required");
    const text = file === "-" ? await Bun.stdin.text() : readText(file);
    const sentences = !values["no-sentences"];
    const language = typeof values.language === "string" ? values.language.toLowerCase() : undefined;
    if (typeof values.workspace === "string") {
      // The same scan record an API call makes, so results from people and from code live in one place.
      const { scan } = await createAiTextScan(context(), inProcessDetector(), values.workspace, {
        text,
        sentences,
        ...(language !== undefined && { language }),
        ...(typeof values.title === "string" && { title: values.title }),
        source: "cli",
      });
      if (values.json) out(JSON.stringify(scan, null, 2));
      else
        out(
          `saved ${scan.id} (${scan.credits_used} credits)\n${report(scan.result as unknown as DetectionResult, useColour(values, config.noColor))}`,
        );
      return;
    }
    checkedWordCount(text);
    let result: DetectionResult;
    try {
      result = detect(text, { sentences, ...(language !== undefined && { language }) });
    } catch (error) {
      if (error instanceof UnsupportedLanguageError) throw new ServiceError("invalid_body", error.message);
      throw error;
    }
    if (values.json) {
      out(JSON.stringify(result, null, 2));
      return;
    }
    out(report(result, useColour(values, config.noColor)));
  },
};

const useColour = (values: CommandInput["values"], noColor: boolean) =>
  Boolean(values.color) || (process.stdout.isTTY === true && !noColor);

function readText(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new UsageError(
      `cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
}

function report(result: DetectionResult, colour: boolean): string {
  const paint = (verdict: Verdict, s: string) => (colour ? `${COLOURS[verdict]}${s}${RESET}` : s);
  const lines = [
    `verdict: ${paint(result.verdict, result.verdict)}   human_score: ${result.human_score}/100   ai_probability: ${result.ai_probability}`,
    `words: ${result.word_count}   sentences: ${result.sentence_count}   readability: ${result.readability}   language: ${result.language ?? "unknown"}   model: ${result.model_version}`,
  ];
  if (result.sentences) {
    lines.push("");
    for (const s of result.sentences) {
      lines.push(
        `${paint(s.verdict, `[${s.verdict.padEnd(5)} ${s.ai_probability.toFixed(3)}]`)} ${paint(s.verdict, s.text)}`,
      );
    }
  }
  return lines.join("\n");
}
