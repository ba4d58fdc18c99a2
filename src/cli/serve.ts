import { relative } from "node:path";
import { ConfigError, configFromProcess } from "../config.ts";
import { createContext } from "../context/index.ts";
import { errorMessage } from "../context/log.ts";
import { StartError, startServer } from "../server.ts";
import { listWorkspaces } from "../workspaces/index.ts";
import type { Command } from "./command.ts";

export const serveCommand: Command = {
  name: "serve",
  summary: "Run the HTTP API with its background jobs on one SQLite data directory.",
  options: {
    host: {
      type: "string",
      description: "Address to listen on (default 127.0.0.1, $TEXTSCAN_HOST).",
      valueName: "H",
    },
    port: {
      type: "string",
      description: "Port (default 8080, $TEXTSCAN_PORT; 0 picks a free one).",
      valueName: "N",
    },
    "data-dir": {
      type: "string",
      description: "Data directory (default ./data, $TEXTSCAN_DATA_DIR).",
      valueName: "DIR",
    },
    workers: {
      type: "string",
      description: "Background job workers (default 2, $TEXTSCAN_WORKERS; 0 runs none).",
      valueName: "N",
    },
  },
  async run({ values }) {
    // The composition root of the server: settings parsed once, one context, handed to everything below.
    const config = configFromProcess({
      ...(typeof values.host === "string" && { host: values.host }),
      ...(typeof values.port === "string" && { port: values.port }),
      ...(typeof values["data-dir"] === "string" && { dataDir: values["data-dir"] }),
      ...(typeof values.workers === "string" && { workers: values.workers }),
    });
    let ctx: ReturnType<typeof createContext>;
    try {
      ctx = createContext({ config });
    } catch (error) {
      if (error instanceof ConfigError) throw error;
      throw new StartError(
        `cannot open the data directory '${config.dataDir}': ${errorMessage(error)} (choose a writable one with --data-dir or TEXTSCAN_DATA_DIR)`,
      );
    }
    const running = await startServer(ctx);
    if (listWorkspaces(ctx.db).length === 0) {
      const self = invokedAs();
      // A hint for the person at the terminal, on stdout; the structured log stays on stderr.
      console.log(
        "No workspace yet. Create one and a key:\n" +
          `  ${self} workspace create --name "My team" --data-dir ${config.dataDir}\n` +
          `  ${self} key create --workspace <id> --data-dir ${config.dataDir}`,
      );
    }
    await new Promise<void>((resolve) => {
      const shutdown = async (signal: string) => {
        ctx.logger.info("server.stopping", { signal });
        await running.stop();
        resolve();
      };
      process.once("SIGINT", () => void shutdown("SIGINT"));
      process.once("SIGTERM", () => void shutdown("SIGTERM"));
    });
  },
};

/** How the user started us, so that hints can be pasted as they are: the binary, or `bun src/main.ts`. */
function invokedAs(): string {
  const script = process.argv[1] ?? "";
  return script.endsWith(".ts") ? `bun ${relative(process.cwd(), script) || script}` : "textscan";
}
