// A peer that is not up yet when a node starts: one warning line with its reason (no stack trace),
// retries in the background, and the peer pinned once it answers.
import { afterAll, describe, expect, it } from "vitest";
import { freePorts, startNode, stopRunningNodes } from "../../testing/index.js";

afterAll(stopRunningNodes);

describe("a peer that is down when the node starts", () => {
  it("is one WARN line without a stack, retried in the background until it answers, then pinned", { timeout: 60_000 }, async () => {
    const [port] = await freePorts(1);
    const peerUrl = `http://127.0.0.1:${port}`;
    const node = await startNode({ args: ["--peer", peerUrl, "--log-level", "debug"] });
    const aboutPeer = () => node.logs.filter((line) => line.peer === peerUrl);
    // Long enough for the first attempts (at start, then 0.7 s, 2 s, 4 s…) to have failed.
    const deadline = Date.now() + 15_000;
    while (aboutPeer().filter((line) => line.level === "debug" || line.level === "warn").length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    const warnings = aboutPeer().filter((line) => line.level === "warn");
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ msg: "could not learn a peer's node address; retrying in the background until it answers", reason: expect.stringContaining("ECONNREFUSED") });
    expect(JSON.stringify(warnings[0])).not.toContain("    at ");

    const peer = await startNode({ args: ["--port", String(port)] });
    const pinnedBy = Date.now() + 30_000;
    while (!aboutPeer().some((line) => line.msg === "pinned a peer's node address") && Date.now() < pinnedBy) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(aboutPeer().find((line) => line.msg === "pinned a peer's node address")).toMatchObject({ level: "info", address: peer.address });
    expect(aboutPeer().filter((line) => line.level === "warn")).toHaveLength(1);
  });
});
