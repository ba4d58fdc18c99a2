import { ConfigError } from "../config.ts";
import { ServiceError } from "../errors.ts";
import { StartError } from "../server.ts";
import { adminCommands } from "./admin.ts";
import { type Command, helpText, runCommand, UsageError } from "./command.ts";
import { detectCommand } from "./detect.ts";
import { libraryCommands } from "./library.ts";
import { scanCommands } from "./scans.ts";
import { serveCommand } from "./serve.ts";
import { webCommands } from "./web.ts";
import { webhookCommands } from "./webhook.ts";

/** Every command of the binary. Other rooms (library, web, webhook) add theirs to this list. */
export const COMMANDS: Command[] = [
  serveCommand,
  ...adminCommands,
  detectCommand,
  ...scanCommands,
  ...webhookCommands,
  ...libraryCommands,
  ...webCommands,
];

function overview(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  return [
    "textscan: AI-text detection, plagiarism checks, credits and signed webhooks in one binary.",
    "",
    "Usage: textscan <command> [options]    (textscan <command> --help for its options)",
    "",
    "Commands:",
    ...COMMANDS.map((c) => `  ${c.name.padEnd(width)}${c.summary}`),
  ].join("\n");
}

/** Finds the command named by the longest matching prefix of argv ("key create" before "key"). */
function resolve(argv: string[]): { command: Command; rest: string[] } | undefined {
  for (const words of [2, 1]) {
    const name = argv.slice(0, words).join(" ");
    const command = COMMANDS.find((c) => c.name === name);
    if (command) return { command, rest: argv.slice(words) };
  }
  return undefined;
}

/** Runs the CLI; returns the process exit code (0 ok, 1 failed, 2 usage). */
export async function main(argv: string[]): Promise<number> {
  const out = (line: string) => console.log(line);
  if (argv.length === 0 || argv[0] === "help" || argv[0] === "--help" || argv[0] === "-h") {
    out(overview());
    return argv.length === 0 ? 2 : 0;
  }
  if (argv[0] === "--version" || argv[0] === "version") {
    out("textscan 0.1.0");
    return 0;
  }
  const found = resolve(argv);
  if (!found) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `));
    if (group.length > 0 && (argv[1] === undefined || argv[1] === "--help" || argv[1] === "-h")) {
      out(group.map((c) => helpText(c)).join("\n\n"));
      return argv[1] === undefined ? 2 : 0;
    }
    console.error(`textscan: unknown command '${argv.slice(0, 2).join(" ")}' (see textscan --help)`);
    return 2;
  }
  try {
    await runCommand(found.command, found.rest, out);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(
        `textscan ${found.command.name}: ${error.message} (see textscan ${found.command.name} --help)`,
      );
      return 2;
    }
    if (error instanceof ConfigError || error instanceof StartError) {
      // One clear line naming what failed and which setting or path to change; a supervisor sees status 1.
      console.error(`textscan ${found.command.name}: ${error.message}`);
      return 1;
    }
    if (error instanceof ServiceError) {
      console.error(`textscan ${found.command.name}: ${error.message}`);
      return 1;
    }
    console.error(`textscan ${found.command.name}: ${(error as Error).message ?? String(error)}`);
    return 1;
  }
}
