import type { Subprocess } from "bun";

const REPO = new URL("../../", import.meta.url).pathname;

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a user would (`bun src/main.ts ...`, or a given binary), with stdin when given. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; stdin?: string; binary?: string } = {},
): Promise<CliResult> {
  const cmd = options.binary ? [options.binary, ...args] : [process.execPath, `${REPO}src/main.ts`, ...args];
  const proc = Bun.spawn(cmd, {
    cwd: REPO,
    env: { ...process.env, NO_COLOR: "1", ...(options.env ?? {}) },
    stdin: options.stdin === undefined ? "ignore" : new Blob([options.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr };
}

export interface ServerProcess {
  url: string;
  proc: Subprocess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `textscan serve` on a free port and waits until it listens. */
export async function startServerProcess(
  dataDir: string,
  options: { binary?: string; env?: Record<string, string>; args?: string[]; cwd?: string } = {},
): Promise<ServerProcess> {
  const args = ["serve", "--port", "0", "--data-dir", dataDir, ...(options.args ?? [])];
  const cmd = options.binary ? [options.binary, ...args] : [process.execPath, `${REPO}src/main.ts`, ...args];
  const proc = Bun.spawn(cmd, {
    cwd: options.cwd ?? REPO,
    env: { ...process.env, ...(options.env ?? {}) },
    stdout: "pipe",
    stderr: "pipe",
  });
  let output = "";
  const decoder = new TextDecoder();
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 20_000);
    const pump = async (stream: ReadableStream<Uint8Array>) => {
      for await (const chunk of stream) {
        output += decoder.decode(chunk);
        const match = output.match(
          /"address":"(http:\/\/[^"]+)"|address=(http:\/\/\S+)|listening on (http:\/\/\S+)/,
        );
        const address = match?.[1] ?? match?.[2] ?? match?.[3];
        if (address) {
          clearTimeout(timer);
          resolve(address);
        }
      }
    };
    void pump(proc.stdout);
    void pump(proc.stderr);
    void proc.exited.then((code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    url,
    proc,
    output: () => output,
    async stop(signal = "SIGTERM") {
      proc.kill(signal);
      await proc.exited;
    },
  };
}
