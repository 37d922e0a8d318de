import { createServer, type Server } from "node:http";
import net, { type AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ConnectionLedger, guardConnections, localGate, openFileLimit, processConnectionCap, type ConnectionGate, type ConnectionRefusal } from "./connection-guard.js";

describe("ConnectionLedger", () => {
  it("admits up to the per-client and total bounds, and counts closes", () => {
    const ledger = new ConnectionLedger({ maxConnections: 3, maxConnectionsPerClient: 2 });
    expect([ledger.open("a"), ledger.open("a"), ledger.open("a")]).toEqual([undefined, undefined, "client"]);
    expect([ledger.open("b"), ledger.open("c")]).toEqual([undefined, "node"]);
    ledger.close("a");
    expect(ledger.open("c")).toBeUndefined();
    expect(ledger.total).toBe(3);
    ledger.close("nobody"); // never admitted: no effect
    expect(ledger.total).toBe(3);
  });

  it("has no per-client bound at 0", () => {
    const ledger = new ConnectionLedger({ maxConnections: 5, maxConnectionsPerClient: 0 });
    for (let i = 0; i < 5; i++) expect(ledger.open("a")).toBeUndefined();
    expect(ledger.open("a")).toBe("node");
  });
});

describe("processConnectionCap", () => {
  it("stays the reserve under the open-file limit", () => {
    expect(processConnectionCap(10_000, 256, 20_000)).toBe(10_000);
    expect(processConnectionCap(10_000, 256, 1024)).toBe(768);
    expect(processConnectionCap(10_000, 256, undefined)).toBe(10_000);
  });

  it("reads this process's limit on Linux", () => {
    if (process.platform === "linux") expect(openFileLimit()).toBeGreaterThan(0);
  });
});

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function serve(gate: ConnectionGate, processCap = 1000): Promise<number> {
  server = createServer((_request, response) => response.end("ok"));
  guardConnections(server, { gate, processCap });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  return (server.address() as AddressInfo).port;
}

/** Opens a connection, sends a GET, resolves "served" or "reset"/"closed" (whatever came first). */
function attempt(port: number, localAddress: string, keep: net.Socket[]): Promise<"served" | "closed"> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port, localAddress }, () => socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
    keep.push(socket);
    socket.on("data", (data) => data.toString().startsWith("HTTP/1.1 200") && resolve("served"));
    socket.on("error", () => resolve("closed"));
    socket.on("close", () => resolve("closed"));
  });
}

describe("guardConnections", () => {
  it("resets a client's connections past its bound at once; other clients get in", async () => {
    const port = await serve(localGate(new ConnectionLedger({ maxConnections: 100, maxConnectionsPerClient: 3 })));
    const sockets: net.Socket[] = [];
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => attempt(port, "127.0.0.20", sockets)));
    expect(outcomes.filter((outcome) => outcome === "served")).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome === "closed")).toHaveLength(2);
    expect(await attempt(port, "127.0.0.21", sockets)).toBe("served");
    // A closed connection gives its place back.
    sockets[0]!.destroy();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await attempt(port, "127.0.0.20", sockets)).toBe("served");
    for (const socket of sockets) socket.destroy();
  });

  it("holds no more than processCap connections, whatever the gate says", async () => {
    const port = await serve(localGate(new ConnectionLedger({ maxConnections: 100, maxConnectionsPerClient: 0 })), 2);
    const sockets: net.Socket[] = [];
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => attempt(port, "127.0.0.22", sockets)));
    expect(outcomes.filter((outcome) => outcome === "served")).toHaveLength(2);
    for (const socket of sockets) socket.destroy();
  });

  it("with a remote gate, reads nothing from a connection until it is admitted", async () => {
    const answers: ((refusal: ConnectionRefusal | undefined) => void)[] = [];
    const closed: string[] = [];
    const gate: ConnectionGate = { remote: true, open: () => new Promise((resolve) => answers.push(resolve)), close: (key) => closed.push(key) };
    const port = await serve(gate);
    const sockets: net.Socket[] = [];
    let served = false;
    const admitted = attempt(port, "127.0.0.23", sockets).then((outcome) => ((served = true), outcome));
    for (let i = 0; i < 50 && answers.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(served).toBe(false); // the request is there, but the connection is paused
    answers[0]!(undefined);
    expect(await admitted).toBe("served");
    const refused = attempt(port, "127.0.0.23", sockets);
    for (let i = 0; i < 50 && answers.length < 2; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    answers[1]!("client");
    expect(await refused).toBe("closed");
    sockets[0]!.destroy();
    for (let i = 0; i < 50 && closed.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(closed).toEqual(["127.0.0.23"]); // the admitted one's close is reported, the refused one's is not
    for (const socket of sockets) socket.destroy();
  });
});
