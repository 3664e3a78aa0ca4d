import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";

// Child processes of the benchmark (servers, seeding) and a tiny HTTP client to probe them.
// Each long-running child gets its own process group so stop() also ends anything it spawned.

export type Child = {
  name: string;
  process: ChildProcess;
  /** The last lines the child wrote (stdout and stderr), for error messages. */
  tail: () => string;
  exited: () => boolean;
  stop: () => Promise<void>;
};

const TAIL_LINES = 40;

export function startChild(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Child {
  const proc = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString("utf8").split("\n").filter(Boolean));
    if (lines.length > TAIL_LINES) lines.splice(0, lines.length - TAIL_LINES);
  };
  // Always drain both pipes: a full pipe would block the server mid-benchmark.
  proc.stdout.on("data", keep);
  proc.stderr.on("data", keep);
  let done = proc.exitCode !== null;
  const exit = new Promise<void>((resolve) => proc.once("exit", () => ((done = true), resolve())));
  proc.once("error", (err) => keep(Buffer.from(`spawn error: ${err.message}`)));

  // Signal the whole group, not only the direct child: the server may leave a child behind.
  const signal = (sig: NodeJS.Signals | 0) => {
    if (proc.pid === undefined) return false;
    try {
      process.kill(-proc.pid, sig); // the child's own process group (detached: pgid = pid)
      return true;
    } catch {
      return false; // no process left in the group
    }
  };
  const stop = async () => {
    const deadline = Date.now() + 5000;
    if (signal("SIGTERM")) {
      while (signal(0) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      signal("SIGKILL");
    }
    if (!done && proc.pid !== undefined) await exit;
  };
  return { name, process: proc, tail: () => lines.join("\n"), exited: () => done, stop };
}

/** Runs a short-lived command and returns its stdout; rejects with its output on a non-zero exit. */
export function runCapture(command: string, args: string[], env: NodeJS.ProcessEnv, cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let err = "";
    proc.stdout.on("data", (c: Buffer) => (out += c.toString("utf8")));
    proc.stderr.on("data", (c: Buffer) => (err += c.toString("utf8")));
    proc.once("error", reject);
    proc.once("exit", (code, sig) =>
      code === 0 ? resolve(out) : reject(new Error(`${args.join(" ")} exited with ${code ?? sig}\n${err}${out}`)),
    );
  });
}

export type Reply = { status: number; body: string; headers: http.IncomingHttpHeaders };

/** One request over node:http (fetch would not let us set Host, which picks the API environment). */
export function request(method: string, url: string, headers: Record<string, string> = {}, body?: string, timeoutMs = 5000): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const sent = body === undefined ? headers : { ...headers, "content-length": String(Buffer.byteLength(body)) };
    const req = http.request(url, { method, headers: sent, timeout: timeoutMs, agent: false }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }));
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`${method} ${url} timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end(body);
  });
}

export function get(url: string, headers: Record<string, string> = {}, timeoutMs = 5000): Promise<Reply> {
  return request("GET", url, headers, undefined, timeoutMs);
}

/** Polls `url` until it answers 200, the child exits, or `timeoutMs` passes. */
export async function waitForHttp(child: Child, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exited()) throw new Error(`${child.name} exited before answering ${url}:\n${child.tail()}`);
    const reply = await get(url, {}, 2000).catch(() => undefined);
    if (reply?.status === 200) return;
    if (Date.now() > deadline) {
      throw new Error(`${child.name} did not answer 200 on ${url} within ${timeoutMs / 1000} s (last: ${reply?.status ?? "no answer"}):\n${child.tail()}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}
