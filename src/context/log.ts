/**
 * Structured logging: one line per event on stderr, as JSON (for collectors) or as readable text (on a
 * terminal). Callers pass facts as fields, never submitted text, API keys or secrets: the logger has no way to
 * know what is secret, so the rule is kept where lines are written (see the callers' comments).
 */
export type LogFormat = "json" | "text";
export type LogLevel = "debug" | "info" | "warn" | "error";
export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface Logger {
  info(event: string, fields?: LogFields): void;
  warn(event: string, fields?: LogFields): void;
  error(event: string, fields?: LogFields): void;
}

export interface LoggerOptions {
  format: LogFormat;
  /** Where lines go; stderr by default (tests capture them). */
  write?: (line: string) => void;
  /** The time stamp of each line: the service clock. */
  clock: () => number;
}

export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const emit = (level: LogLevel, event: string, fields: LogFields = {}) => {
    const time = new Date(options.clock()).toISOString();
    write(
      options.format === "json" ? jsonLine(time, level, event, fields) : textLine(time, level, event, fields),
    );
  };
  return {
    info: (event, fields) => emit("info", event, fields),
    warn: (event, fields) => emit("warn", event, fields),
    error: (event, fields) => emit("error", event, fields),
  };
}

function jsonLine(time: string, level: LogLevel, event: string, fields: LogFields): string {
  const record: Record<string, unknown> = { time, level, event };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) record[key] = value;
  return JSON.stringify(record);
}

function textLine(time: string, level: LogLevel, event: string, fields: LogFields): string {
  const parts = [time, level.toUpperCase().padEnd(5), event];
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const text = String(value);
    parts.push(`${key}=${/[\s"=]/.test(text) || text === "" ? JSON.stringify(text) : text}`);
  }
  return parts.join(" ");
}

/** The one-line message of an error, for a log field (no stack: stacks go only to debug runs). */
export const errorMessage = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/** A logger that drops everything: for engines' scripts and tests that do not look at logs. */
export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} };
