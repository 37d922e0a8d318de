import { openSqliteStore } from "../dist/storage/sqlite.js";
import { users } from "./lib.mjs";
const store = openSqliteStore({ file: "/tmp/v16.sqlite", migrate: false });
const people = users(10000).slice(0, 2000).map((u) => u.address);
const pages = [];
for (const owner of people) {
  const page = await store.page({ owner, ranges: [{ side: "received" }], order: "desc", limit: 20 });
  pages.push({ owner, ids: page.messages.map((m) => Number(JSON.parse(m.json).id ?? m.id)) });
}
console.log(pages[0].ids.slice(0, 3));
async function time(name, fn) {
  for (const p of pages) await fn(p);
  const runs = [];
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    for (const p of pages) await fn(p);
    runs.push(Number(process.hrtime.bigint() - t) / 1000 / pages.length);
  }
  runs.sort((a, b) => a - b);
  console.log(name, runs[2].toFixed(2), "µs");
}
await time("logSize", (p) => store.logSize(p.owner));
await time("positions", (p) => store.positions(p.owner, p.ids));
let sizes = new Map(); for (const p of pages) sizes.set(p.owner, await store.logSize(p.owner));
await time("logLeaves 64 at the head", (p) => { const n = sizes.get(p.owner); const from = Math.max(1, n - (n % 64) + 1 - (n % 64 === 0 ? 64 : 0)); return store.logLeaves(p.owner, from, n - from + 1); });
await time("log 20 at the head", (p) => store.log(p.owner, Math.max(1, sizes.get(p.owner) - 19), 20));
await store.close();
const { LogTree, storeLogHashes, TILE_HEIGHT } = await import("../dist/mailbox-log/tree.js");
const store2 = openSqliteStore({ file: "/tmp/v16.sqlite", migrate: false });
await time("proof made anew (size, positions, multiproof, root)", async (p) => {
  const size = await store2.logSize(p.owner);
  const entries = await store2.positions(p.owner, p.ids);
  const tree = new LogTree(storeLogHashes(store2, p.owner), TILE_HEIGHT);
  await tree.multiproof(entries.map((e) => e.seq - 1), size);
  await tree.root(size);
});
await store2.close();
const store3 = openSqliteStore({ file: "/tmp/v16.sqlite", migrate: false });
await time("logLeaves 256 from the page's chunk (short: the log ends)", async (p) => { const n = sizes.get(p.owner); const from = Math.max(1, n - 40); return store3.logLeaves(p.owner, from, 256); });
await store3.close();
