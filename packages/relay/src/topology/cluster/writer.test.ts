import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, it } from "vitest";

const FIXTURE = fileURLToPath(new URL("../../../test/cluster-writer.fixture.mjs", import.meta.url));

interface Report {
  ids: number[];
  created: boolean;
  resent: { id: number; created: boolean }[];
  read: number[];
  signed: { crossed: string[]; created: boolean; asStored: boolean; withReceipts: boolean };
  afterClose: string;
  threadsAdded: number;
}

it("cluster workers append through their primary's one writer: ids unique across workers, resends recognised, reads see them; receipts the writer signs cross the channel without the JSON, made again as stored", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "neutral-shared-writer-"));
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [FIXTURE, path.join(dir, "relay.db")], { timeout: 30_000 });
    expect(stdout, `the primary printed no report; stderr: ${stderr}`).toMatch(/^\[.*\]\n$/);
    const reports = JSON.parse(stdout.trim()) as Report[];
    expect(reports).toHaveLength(2);
    const all = reports.flatMap((report) => report.ids);
    expect(new Set(all).size).toBe(100);
    for (const report of reports) {
      expect(report.created).toBe(true);
      expect(report.resent).toEqual(report.ids.slice(0, 5).map((id) => ({ id, created: false })));
      expect(report.read).toEqual([...report.ids].sort((a, b) => b - a));
      expect(report.afterClose).toBe("StoreClosedError STORE_CLOSED");
      expect(report.threadsAdded).toBe(0);
      expect(report.signed).toEqual({ crossed: Array.from({ length: 20 }, () => "receipts"), created: true, asStored: true, withReceipts: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
