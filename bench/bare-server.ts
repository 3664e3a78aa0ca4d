import http from "node:http";

// The benchmark's physical ceiling: a bare node:http server answering the same JSON as GET /v1/health
// and GET /bench/static. Run by bench/run.ts in its own process: `node --import tsx bench/bare-server.ts <port>`.

const port = Number(process.argv[2]);
if (!Number.isInteger(port) || port <= 0) {
  console.error("usage: bare-server.ts <port>");
  process.exit(2);
}

const BODY = JSON.stringify({ status: "ok", environment: "sandbox", version: "1.4.0", tenant: "ten_000000000000000000000BENCH" });

const server = http.createServer((_request, response) => {
  response.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
  response.end(BODY);
});

// Loopback only: the benchmark never listens on a public interface.
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
