import { type ParseArgsConfig, parseArgs } from "node:util";
import { type Config, configFromProcess } from "../config.ts";
import { createContext, type ServiceContext } from "../context/index.ts";
import type { Store } from "../store/db.ts";

/** A usage mistake: printed as one line with a hint to --help, exit code 2. */
export class UsageError extends Error {}

type OptionSpec = NonNullable<ParseArgsConfig["options"]>[string] & {
  description: string;
  valueName?: string;
};

export interface Command {
  /** Words that select it, e.g. "workspace create". */
  name: string;
  summary: string;
  /** Positional arguments as shown in the usage line, e.g. "FILE|-". */
  args?: string;
  options?: Record<string, OptionSpec>;
  /** Whether it opens the data directory (adds --data-dir). */
  usesStore?: boolean;
  run(input: CommandInput): Promise<void> | void;
}

export interface CommandInput {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  /** The settings, parsed once from flags and the environment. */
  config: Config;
  /** The command's service context over the data directory (opened on first use; usesStore commands). */
  context(): ServiceContext;
  /** Shorthand for `context().store`. */
  store(): Store;
  out: (line: string) => void;
}

const DATA_DIR_OPTION: OptionSpec = {
  type: "string",
  description: "Data directory (default: $TEXTSCAN_DATA_DIR or ./data).",
  valueName: "DIR",
};
const HELP_OPTION: OptionSpec = { type: "boolean", short: "h", description: "Show this help." };

export function optionsOf(command: Command): Record<string, OptionSpec> {
  return {
    ...(command.options ?? {}),
    ...(command.usesStore ? { "data-dir": DATA_DIR_OPTION } : {}),
    help: HELP_OPTION,
  };
}

export function helpText(command: Command): string {
  const lines = [
    `Usage: textscan ${command.name}${command.args ? ` ${command.args}` : ""} [options]`,
    "",
    command.summary,
    "",
  ];
  lines.push("Options:");
  for (const [name, spec] of Object.entries(optionsOf(command))) {
    const flag = `--${name}${spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : ""}`;
    lines.push(`  ${flag.padEnd(26)} ${spec.description}`);
  }
  return lines.join("\n");
}

export async function runCommand(
  command: Command,
  argv: string[],
  out: (line: string) => void,
): Promise<void> {
  const options = optionsOf(command);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: Object.fromEntries(
        Object.entries(options).map(([name, { description: _d, valueName: _v, ...spec }]) => [name, spec]),
      ),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split("\n")[0]);
  }
  if (parsed.values.help) {
    out(helpText(command));
    return;
  }
  // The composition root of a CLI command: one configuration, one context (clock, store, secrets), built once.
  const dataDir = parsed.values["data-dir"];
  const config = configFromProcess(typeof dataDir === "string" ? { dataDir } : {});
  let ctx: ServiceContext | undefined;
  const context = () => {
    ctx ??= createContext({ config });
    return ctx;
  };
  try {
    await command.run({
      values: parsed.values as Record<string, string | boolean | undefined>,
      positionals: parsed.positionals,
      config,
      context,
      store: () => context().store,
      out,
    });
  } finally {
    ctx?.store.close();
  }
}

export function requireString(values: CommandInput["values"], name: string): string {
  const value = values[name];
  if (typeof value !== "string" || value === "") throw new UsageError(`--${name} is required`);
  return value;
}

export function optionalInteger(values: CommandInput["values"], name: string): number | undefined {
  const value = values[name];
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== "string" || !/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new UsageError(`--${name} must be a whole number, got '${String(value)}'`);
  }
  return n;
}
