// Run by src/topology/channel.test.ts: a primary and two workers speaking over the cluster channel
// (the built dist/). The primary prints one JSON line with what each side saw, then exits.
import cluster from "node:cluster";
import { linkToPrimary, linkToWorkers } from "../dist/topology/channel.js";

if (cluster.isPrimary) {
  const workers = linkToWorkers();
  const seen = { opened: [], closed: [], kicks: 0, exits: [], answers: {} };
  workers.answer("connection-open", ({ key }, from) => {
    seen.opened.push(key);
    if (key === "throw") throw new Error("the handler failed");
    return key === "refuse" ? { refused: "client" } : {};
  });
  workers.on("connection-close", ({ key }) => seen.closed.push(key));
  workers.on("delivery-kick", () => seen.kicks++);
  workers.onExit((worker) => seen.exits.push(worker.id));
  const forked = [cluster.fork(), cluster.fork()];
  let ready = 0;
  for (const worker of forked) {
    worker.on("message", async (message) => {
      if (message !== "ready" || ++ready < 2) return;
      // Both workers listen: a broadcast reaches both, a notice one; a request is answered by one.
      workers.broadcast("commits", { events: [{ kind: "broadcast" }] });
      workers.notify({ id: forked[0].id }, "limits-others", { tables: { rate: [["only-first", 1]] } });
      seen.answers.registry = (await workers.request({ id: forked[1].id }, "metrics-registry", {}, 5000))?.metrics;
      // A worker that dies with a request pending: the request settles undefined at its exit.
      const pending = workers.request({ id: forked[0].id }, "metrics-registry", { hang: true }, 60_000);
      forked[0].process.kill("SIGKILL");
      const started = Date.now();
      seen.answers.dead = (await pending) ?? null;
      seen.answers.deadWithinMs = Date.now() - started < 5000;
      forked[1].send("report");
    });
    worker.on("message", (message) => {
      if (typeof message === "object" && message && message.report) {
        seen.worker = message.report;
        forked[1].kill();
      }
    });
  }
  cluster.on("exit", () => {
    if (Object.keys(cluster.workers).length > 0 && seen.exits.length < 2) return;
    setTimeout(() => {
      process.stdout.write(`${JSON.stringify(seen)}\n`);
      process.exit(0);
    }, 50);
  });
} else {
  const primary = linkToPrimary();
  const report = { heard: [], answers: [] };
  primary.on("commits", ({ events }) => report.heard.push(events[0].kind));
  primary.on("limits-others", ({ tables }) => report.heard.push(tables.rate[0][0]));
  primary.answer("metrics-registry", (body) => (body.hang ? new Promise(() => {}) : { metrics: [{ name: `from-${cluster.worker.id}` }] }));
  for (const key of ["admit", "refuse", "throw"]) {
    report.answers.push(await primary.request("connection-open", { key: `${key}` }).then((answer) => answer, (error) => `${error.name}: ${error.message}`));
  }
  primary.notify("connection-close", { key: "admit" });
  primary.notify("delivery-kick", {});
  process.on("message", (message) => {
    if (message === "report") process.send({ report });
  });
  process.send("ready");
}
