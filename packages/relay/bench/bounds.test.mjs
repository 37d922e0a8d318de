import { describe, expect, it } from "vitest";
import { applicableConnectionLimit, batchAnswerBytes, connectionLimitFlags, flagDefaults, floodSources, latencyStats, median, msText, storedAgain, streamRequestText } from "./bounds.mjs";

const help = [
  "Flags (each also an environment variable; a flag wins over its variable):",
  "  --host                     NEUTRAL_HOST                     interface to listen on (default 127.0.0.1)",
  "  --database-pool-size       NEUTRAL_DATABASE_POOL_SIZE       PostgreSQL connections per worker process (default 10)",
  "  --domain                   NEUTRAL_DOMAIN                   Sign-In with Ethereum domain accepted in tokens (default: HOST:PORT)",
  "  --max-response-bytes       NEUTRAL_MAX_RESPONSE_BYTES       answer budget of one HTTP request (default 4194304)",
  "  --max-connections          NEUTRAL_MAX_CONNECTIONS          open client connections per node; 0 = off (default 10000)",
  "  --max-connections-per-ip   NEUTRAL_MAX_CONNECTIONS_PER_IP   open client connections per client address (default 256)",
  "  --idle-connection-timeout  NEUTRAL_IDLE_CONNECTION_TIMEOUT  ms (default 5000)",
  "  --max-client-connections   NEUTRAL_MAX_CLIENT_CONNECTIONS   0 = off (default 0)",
  "  --max-buffered-bytes-per-ip NEUTRAL_MAX_BUFFERED_BYTES_PER_IP per worker and client IP; 0 = off (behind a proxy) (default 16777216)",
  "  --help                                                      this text",
].join("\n");

describe("flagDefaults", () => {
  it("reads each flag's default from the relay's --help", () => {
    const flags = flagDefaults(help);
    expect(flags.get("max-response-bytes")).toBe("4194304");
    expect(flags.get("domain")).toBe("HOST:PORT");
    expect(flags.get("host")).toBe("127.0.0.1");
    expect(flags.get("max-buffered-bytes-per-ip")).toBe("16777216");
    expect(flags.has("help")).toBe(true);
    expect(flags.get("help")).toBeUndefined();
  });
});

describe("connectionLimitFlags", () => {
  it("finds the client-connection limits, not the database pool's nor timeouts, and treats 0 as off", () => {
    expect(connectionLimitFlags(help)).toEqual([
      { flag: "max-connections", value: 10000, text: "10000", perAddress: false },
      { flag: "max-connections-per-ip", value: 256, text: "256", perAddress: true },
      { flag: "max-client-connections", value: undefined, text: "0", perAddress: false },
    ]);
    expect(connectionLimitFlags("  --database-pool-size  X  connections (default 10)")).toEqual([]);
  });
});

describe("applicableConnectionLimit", () => {
  it("is the smallest cap for the flood's addresses: a per-address limit times their count, or the total", () => {
    const limits = connectionLimitFlags(help);
    expect(applicableConnectionLimit(limits, 1)).toBe(256);
    expect(applicableConnectionLimit(limits, 10)).toBe(2560);
    expect(applicableConnectionLimit(limits, 100)).toBe(10000);
    expect(applicableConnectionLimit([], 1)).toBeUndefined();
  });
});

describe("batchAnswerBytes", () => {
  it("is the byte length of the JSON-RPC batch answer it stands for", () => {
    const address = "0x" + "ab".repeat(20);
    const messages = [{ id: "2", message: "ff" }, { id: "1", message: "00" }].map((m) => JSON.stringify(m));
    const page = { address, data: messages.map((m) => JSON.parse(m)), end: false };
    const answer = JSON.stringify([1, 2, 3].map((id) => ({ jsonrpc: "2.0", id, result: [page] })));
    expect(batchAnswerBytes({ entries: 3, address, pageJson: messages.join(","), end: false })).toBe(Buffer.byteLength(answer));
  });
});

describe("median", () => {
  it("takes the middle value, the lower of two for an even count, NaN for none", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2);
    expect(Number.isNaN(median([]))).toBe(true);
  });
});

describe("floodSources", () => {
  it("gives loopback addresses other than 127.0.0.1", () => {
    expect(floodSources(1, 1)).toEqual(["127.0.1.1"]);
    const many = floodSources(2, 260);
    expect(many[249]).toBe("127.0.2.250");
    expect(many[250]).toBe("127.0.3.1");
    expect(many.every((a) => a.startsWith("127.") && a !== "127.0.0.1")).toBe(true);
  });
});

describe("streamRequestText", () => {
  it("is one HTTP request opening a subscribe stream, its content-length the body's bytes", () => {
    const text = streamRequestText(8645, "tok.en");
    const [head, body] = text.split("\r\n\r\n");
    expect(head.split("\r\n")).toEqual([
      "POST / HTTP/1.1",
      "Host: 127.0.0.1:8645",
      "Content-Type: application/json",
      "Accept: text/event-stream",
      "Authorization: Bearer tok.en",
      `Content-Length: ${Buffer.byteLength(body)}`,
    ]);
    expect(JSON.parse(body)).toEqual({ jsonrpc: "2.0", id: 1, method: "neutralService_subscribe", params: {} });
  });
});

describe("latencyStats", () => {
  it("counts a failed request as slower than every answered one", () => {
    const samples = Array.from({ length: 100 }, (_, k) => ({ ok: true, ms: k + 1 }));
    expect(latencyStats(samples)).toEqual({ count: 100, answered: 100, p50: 50, p99: 99, max: 100 });
    samples[0] = { ok: false, ms: 1 };
    const stats = latencyStats(samples);
    expect(stats.answered).toBe(99);
    expect(stats.p99).toBe(100);
    expect(stats.max).toBe(Infinity);
    expect(latencyStats([{ ok: false, ms: 3 }]).p99).toBe(Infinity);
    expect(Number.isNaN(latencyStats([]).p50)).toBe(true);
  });
});

describe("msText", () => {
  it("says FAILED for a request not answered and n/a for none", () => {
    expect(msText(1234.56)).toBe("1,234.6 ms");
    expect(msText(Infinity)).toBe("FAILED");
    expect(msText(Number.NaN)).toBe("n/a");
  });
});

describe("storedAgain", () => {
  it("counts answers with an id other than the original's, not the refused ones", () => {
    expect(storedAgain(["1", "2", "3"], ["1", "9", undefined])).toBe(1);
    expect(storedAgain(["1", "2"], ["1", "2"])).toBe(0);
  });
});
