import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import type { CommitEvent, CommittedMessage } from "../../live/commits.js";
import { commitsFor } from "./commits.js";

const FIXTURE = fileURLToPath(new URL("../../../test/cluster-commits.fixture.mjs", import.meta.url));
const account = (digit: string): string => `0x${digit.repeat(40)}`;
const [a, b, c, d, x] = [account("a"), account("b"), account("c"), account("d"), account("e")];

interface Heard {
  accounts: string[];
  id?: number;
  json: boolean;
}
interface Report {
  streams: boolean;
  steps: { sent: number[]; heard: Heard[]; notices: number }[];
}

describe("commitsFor", () => {
  const committed = (id: number, from: string, to: string): CommittedMessage => ({ id, json: `{"id":"${id}"}`, from, to, timestamp: 1 });
  const events: CommitEvent[] = [
    { kind: "message", accounts: [a, b], message: committed(1, a, b) },
    { kind: "message", accounts: [c, d], message: committed(2, c, d) },
    { kind: "message", accounts: [d] },
    { kind: "status", account: c, id: 2 },
    { kind: "resync" },
  ];

  it("keeps a message where one of its accounts is streamed, gives the others their accounts alone, and passes every other event as it is", () => {
    expect(commitsFor(events, new Set([b]))).toEqual([events[0], { kind: "message", accounts: [c, d] }, events[2], events[3], events[4]]);
    expect(commitsFor(events, new Set([d, x]))).toEqual([{ kind: "message", accounts: [a, b] }, events[1], events[2], events[3], events[4]]);
    expect(commitsFor(events, undefined)).toEqual([{ kind: "message", accounts: [a, b] }, { kind: "message", accounts: [c, d] }, events[2], events[3], events[4]]);
  });
});

it(
  "a cluster primary carries a committed message only to the workers streaming one of its accounts, by what each last said; the others hear its accounts; a transaction's commits are one notice",
  { timeout: 60_000 },
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "neutral-cluster-commits-"));
    try {
      const { stdout, stderr } = await promisify(execFile)(process.execPath, [FIXTURE, path.join(dir, "relay.db")], { timeout: 30_000 });
      expect(stdout, `the primary printed no report; stderr: ${stderr}`).toMatch(/^\[.*\]\n$/);
      const reports = JSON.parse(stdout.trim()) as Report[];
      const streaming = reports.find((report) => report.streams)!;
      const idle = reports.find((report) => !report.streams)!;
      expect(reports).toHaveLength(2);
      // Step 1: worker 1 streams a. Step 2: a's stream ended, one stream of d left (two opened, one closed).
      const [first, second, third] = streaming.steps;
      expect(first!.heard).toEqual([
        { accounts: [a, b], id: first!.sent[0], json: true },
        { accounts: [c, d], json: false },
        { accounts: [c, b], json: false },
      ]);
      expect(second!.heard).toEqual([
        { accounts: [a, x], json: false },
        { accounts: [c, d], id: second!.sent[1], json: true },
      ]);
      // Step 3: three appends at once, one transaction: told in commit order, in one notice.
      expect(third!.heard).toEqual([
        { accounts: [b, c], json: false },
        { accounts: [x, d], id: third!.sent[1], json: true },
        { accounts: [d, a], id: third!.sent[2], json: true },
      ]);
      // Appended one after another, each its own transaction: a notice each.
      expect(streaming.steps.map((step) => step.notices)).toEqual([3, 2, 1]);
      expect(idle.steps.map((step) => step.notices)).toEqual([3, 2, 1]);
      // A worker that streams nothing hears every commit's accounts (its kept proofs need them), never a message.
      expect(idle.steps.map((step) => step.heard)).toEqual([
        [
          { accounts: [a, b], json: false },
          { accounts: [c, d], json: false },
          { accounts: [c, b], json: false },
        ],
        [
          { accounts: [a, x], json: false },
          { accounts: [c, d], json: false },
        ],
        [
          { accounts: [b, c], json: false },
          { accounts: [x, d], json: false },
          { accounts: [d, a], json: false },
        ],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
