// The generated client against the generated server stub, over real HTTP on loopback.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createDispatcher, createHttpHandler, ErrorCode, RpcError as ServerRpcError, type RequestContext } from "@neutral/server";
import { service, type Handlers } from "@neutral/server/neutral-service";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { KeyBundle, Message, SignedMessage } from "./index.js";
import {
  createNeutralServiceClient,
  createRpcClient,
  getChatRequest,
  getInbox,
  getInboxRequest,
  nodeInfoRequest,
  RpcError,
  RpcTransportError,
  sendMessageRequest,
} from "./index.js";

type Ctx = RequestContext<{ address: string }>;
const alice = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266";
const bob = "0x70997970c51812dc3a010c7d01b50e0d17dc79c8";
const sig = (c: string) => `0x${c.repeat(130)}`;
const stored: Message[] = [];
const bundles = new Map<string, KeyBundle>();
const seen: { method: string; args: unknown }[] = [];

const handlers: Handlers<Ctx> = {
  neutralService_getInbox(args, { auth }) {
    seen.push({ method: "getInbox", args });
    const mine = stored.filter((m) => m.to === auth.address).reverse();
    return { address: auth.address, data: mine.slice(0, args.limit), end: mine.length <= args.limit };
  },
  neutralService_getChat(args, { auth }) {
    seen.push({ method: "getChat", args });
    const peer = args.inboxFilter.chat?.toLowerCase() ?? bob;
    const data = stored.filter((m) => (m.from === auth.address && m.to === peer) || (m.from === peer && m.to === auth.address));
    return { id: peer, data: data.reverse().slice(0, args.limit), end: true };
  },
  async neutralService_sendMessage({ message }, { auth }) {
    if (message.from.toLowerCase() !== auth.address) throw new ServerRpcError(ErrorCode.Forbidden, "Forbidden: from is not the caller", { reason: "from" });
    const saved: Message = { ...message, from: message.from.toLowerCase(), to: message.to.toLowerCase(), id: String(stored.length + 1), sender_receipt: sig("a"), receiver_receipt: sig("b") };
    stored.push(saved);
    return saved;
  },
  neutralService_publishKey({ bundle }, { auth }) {
    if (bundle.account.toLowerCase() !== auth.address) throw new ServerRpcError(ErrorCode.Forbidden, "Forbidden: not the caller's bundle");
    bundles.set(auth.address, { ...bundle, account: auth.address });
    return bundles.get(auth.address)!;
  },
  neutralService_getKey({ account }) {
    return bundles.get(account.toLowerCase()) ?? null;
  },
  neutralService_publishHome({ record }) {
    return record;
  },
  neutralService_getHome() {
    return null;
  },
  neutralService_setConsent({ records, policy }, { auth }) {
    return { account: auth.address, policy: policy ?? null, records };
  },
  neutralService_getConsent(_args, { auth }) {
    return { account: auth.address, policy: null, records: [], end: true };
  },
  neutralService_deleteMessages({ request }) {
    return { node: alice, account: request.account, ids: request.ids, request: `0x${"0".repeat(64)}`, signature: sig("c") };
  },
  neutralService_importMessages({ messages }) {
    return { ids: messages.map((_, i) => String(i + 1)) };
  },
  // The verifiable mailbox: an empty log, its head unsigned (the typed client does not check it).
  neutralService_getProof(_args, { auth }) {
    return { head: { account: auth.address, size: 0, root: `0x${"e3".repeat(32)}`, timestamp: 0, signature: sig("d") }, positions: [] };
  },
  neutralService_getLog(_args, { auth }) {
    return { head: { account: auth.address, size: 0, root: `0x${"e3".repeat(32)}`, timestamp: 0, signature: sig("d") }, entries: [], end: true };
  },
  neutralService_proveDelivery({ ids }) {
    return { proofs: ids.map((id) => ({ id, problem: "not a message you sent on this node" })) };
  },
  // Node-to-node methods: this stand-in node has no peers.
  neutralService_provePositions() {
    throw new ServerRpcError(ErrorCode.Forbidden, "Forbidden: not a peer");
  },
  neutralService_deliver() {
    throw new ServerRpcError(ErrorCode.Forbidden, "Forbidden: not a peer");
  },
  neutralService_lookup() {
    throw new ServerRpcError(ErrorCode.Forbidden, "Forbidden: not a peer");
  },
  neutralService_subscribe({ after }, { auth, lastEventId, signal }) {
    seen.push({ method: "subscribe", args: { after, lastEventId } });
    if (after === "999") throw new ServerRpcError(ErrorCode.RateLimited, "Server busy: too many streams", { retryAfter: 2 });
    const from = Number(lastEventId ?? after ?? 0);
    return (async function* () {
      const mine = stored.filter((m) => m.to === auth.address && Number(m.id) > from);
      for (const message of mine) yield { id: message.id, method: "neutralService_message" as const, params: { message } };
      yield { method: "neutralService_caughtUp" as const, params: mine.length > 0 ? { cursor: mine.at(-1)!.id } : {} };
      if (after === "888") await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      yield { method: "neutralService_end" as const, params: { reason: "shutdown" as const, message: "bye" } };
    })();
  },
  neutralService_nodeInfo() {
    return { address: bob, software: "in-test", version: "0.0.0", domains: ["127.0.0.1"], limits: { maxLimit: 100, maxBatch: 100, maxBodyBytes: 4096, maxMessageBytes: 64, clockSkewMs: 1 } };
  },
};

let server: Server;
let url: string;
const authorizations: (string | undefined)[] = [];

beforeAll(async () => {
  const dispatcher = createDispatcher<Ctx>({ service, handlers });
  const http = createHttpHandler<Ctx>({
    dispatcher,
    authenticate(authorization) {
      authorizations.push(authorization);
      const match = /^Bearer (0x[0-9a-f]{40})$/.exec(authorization ?? "");
      if (!match) throw ServerRpcError.unauthorized(authorization ? "malformed" : "missing token");
      return { auth: { address: match[1]! } };
    },
    // Paths other than / stand in for a misbehaving node or proxy.
    fallback(request, response) {
      if (request.url === "/slow") setTimeout(() => response.writeHead(200).end("late"), 2_000);
      else if (request.url === "/html") response.writeHead(502, { "content-type": "text/html" }).end("<h1>Bad gateway</h1>");
      else response.writeHead(404).end();
    },
  });
  server = createServer(http);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const draft = (text: string, from = alice, to = bob): SignedMessage => ({ from, to, message: Buffer.from(text).toString("hex"), timestamp: Date.now(), signature: sig("1") });

describe("generated client ↔ generated stub", () => {
  it("calls every method and unwraps the one-element result", async () => {
    const asAlice = createNeutralServiceClient({ url, auth: alice });
    const asBob = createNeutralServiceClient({ url, auth: () => bob });
    const sent = await asAlice.sendMessage({ message: draft("hello bob") });
    expect(sent).toMatchObject({ id: expect.stringMatching(/^\d+$/), from: alice, to: bob, sender_receipt: sig("a") });
    await asBob.sendMessage({ message: draft("hi alice", bob, alice) });

    const inbox = await asBob.getInbox();
    expect(inbox.address).toBe(bob);
    expect(inbox.data.map((m) => m.id)).toEqual([sent.id]);
    // The stub fills the spec's defaults, nested ones included (InboxFilter's direction and folder).
    expect(seen.at(-1)).toEqual({ method: "getInbox", args: { inboxFilter: { direction: "received", folder: "inbox" }, limit: 20 } });

    const chat = await asAlice.getChat({ inboxFilter: { chat: bob.toUpperCase().replace("0X", "0x") }, limit: 10 });
    expect(chat.id).toBe(bob);
    expect(chat.data).toHaveLength(2);

    const info = await createNeutralServiceClient({ url }).nodeInfo();
    expect(info.software).toBe("in-test");

    const bundle = { account: alice, key: `0x${"ab".repeat(32)}`, timestamp: 1767225600000, signature: sig("c") };
    expect(await createNeutralServiceClient({ url }).getKey({ account: alice })).toBeNull();
    expect(await asAlice.publishKey({ bundle })).toEqual(bundle);
    expect(await createNeutralServiceClient({ url }).getKey({ account: alice.toUpperCase().replace("0X", "0x") })).toEqual(bundle);
  });

  it("streams a subscription's notifications (SSE) as typed events, resumes after Last-Event-ID, and stops on abort", async () => {
    const asAlice = createNeutralServiceClient({ url, auth: alice });
    const asBob = createNeutralServiceClient({ url, auth: bob });
    const one = await asAlice.sendMessage({ message: draft("stream one") });
    const two = await asAlice.sendMessage({ message: draft("stream two") });
    const events = [];
    for await (const event of asBob.subscribe({ after: String(Number(one.id) - 1) })) events.push(event);
    expect(events.map((event) => [event.method, event.id])).toEqual([
      ["neutralService_message", one.id],
      ["neutralService_message", two.id],
      ["neutralService_caughtUp", undefined],
      ["neutralService_end", undefined],
    ]);
    const first = events[0]!;
    if (first.method !== "neutralService_message") throw new Error("expected a message");
    expect(first.params.message).toEqual(one);

    const resumed = [];
    for await (const event of asBob.subscribe({ after: "0" }, { lastEventId: one.id })) resumed.push(event.id);
    expect(resumed.filter(Boolean)).toEqual([two.id]);
    expect(seen.at(-1)).toEqual({ method: "subscribe", args: { after: "0", lastEventId: one.id } });

    // A held stream stops when its signal aborts: the iteration just ends.
    const abort = new AbortController();
    const held: string[] = [];
    for await (const event of asBob.subscribe({ after: "888" }, { signal: abort.signal })) {
      held.push(event.method);
      if (event.method === "neutralService_caughtUp") abort.abort();
    }
    expect(held.at(-1)).toBe("neutralService_caughtUp");
  });

  it("throws the node's refusal to open a stream as a typed RpcError", async () => {
    const asBob = createNeutralServiceClient({ url, auth: bob });
    const refused = (async () => {
      for await (const event of asBob.subscribe({ after: "999" })) void event;
    })();
    await expect(refused).rejects.toMatchObject({ name: "RpcError", code: -32029, status: 429, data: { retryAfter: 2 } });
    const noToken = (async () => {
      for await (const event of createNeutralServiceClient({ url }).subscribe()) void event;
    })();
    await expect(noToken).rejects.toMatchObject({ name: "RpcError", code: -32001, status: 401 });
  });

  it("counts a stream silent for idleTimeoutMs as cut (keep-alive comments keep it open; time the caller holds an event does not count), and ends when the caller aborts while holding one", async () => {
    // caughtUp at once; then nothing ("silent"), a keep-alive every 100 ms for 700 ms ("keep-alive"), or the end after 100 ms ("end").
    const sse = createServer((request, response) => {
      response.writeHead(200, { "content-type": "text/event-stream" });
      const event = (method: string) => response.write(`data: ${JSON.stringify({ jsonrpc: "2.0", method, params: {} })}\n\n`);
      event("neutralService_caughtUp");
      const mode = request.headers["x-mode"];
      if (mode === "silent") return;
      const keepAlive = mode === "keep-alive" ? setInterval(() => response.write(": keep-alive\n\n"), 100) : undefined;
      setTimeout(
        () => {
          clearInterval(keepAlive);
          event("neutralService_end");
          response.end();
        },
        mode === "keep-alive" ? 700 : 100,
      );
    });
    await new Promise<void>((resolve) => sse.listen(0, "127.0.0.1", resolve));
    try {
      const client = createRpcClient({ url: `http://127.0.0.1:${(sse.address() as AddressInfo).port}` });
      const read = async (mode: string, hold = 0) => {
        const methods: string[] = [];
        for await (const event of client.stream({ method: "neutralService_subscribe" }, { idleTimeoutMs: 300, headers: { "x-mode": mode } })) {
          methods.push(event.method);
          await new Promise((resolve) => setTimeout(resolve, hold));
        }
        return methods;
      };
      const started = Date.now();
      await expect(read("silent")).rejects.toMatchObject({ name: "RpcTransportError", message: expect.stringContaining("nothing received for 300 ms") });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(await read("keep-alive")).toEqual(["neutralService_caughtUp", "neutralService_end"]);
      expect(await read("end", 600)).toEqual(["neutralService_caughtUp", "neutralService_end"]);

      // Aborted while the caller holds an event, after the node has ended the body: the iteration ends at once.
      const abort = new AbortController();
      const held: string[] = [];
      const stopped = Date.now();
      for await (const event of client.stream({ method: "neutralService_subscribe" }, { signal: abort.signal, headers: { "x-mode": "end" } })) {
        held.push(event.method);
        await new Promise((resolve) => setTimeout(resolve, 300));
        abort.abort();
      }
      expect(held).toEqual(["neutralService_caughtUp"]);
      expect(Date.now() - stopped).toBeLessThan(2_000);
    } finally {
      sse.closeAllConnections();
      await new Promise<void>((resolve) => sse.close(() => resolve()));
    }
  }, 15_000);

  it("sends params positionally, as the interface's examples do", async () => {
    const bodies: unknown[] = [];
    const spy: typeof fetch = (input, init) => {
      bodies.push(JSON.parse(String(init?.body)));
      return fetch(input, init);
    };
    const client = createRpcClient({ url, auth: alice, fetch: spy });
    await getInbox(client);
    await getInbox(client, { limit: 5, before: "9" });
    expect(bodies).toEqual([
      { jsonrpc: "2.0", method: "neutralService_getInbox", params: [], id: 1 },
      { jsonrpc: "2.0", method: "neutralService_getInbox", params: [null, 5, null, "9"], id: 2 },
    ]);
  });

  it("batches typed requests; each entry settles on its own", async () => {
    const client = createNeutralServiceClient({ url, auth: alice });
    const [info, inbox, bad, chat] = await client.rpc.batch([
      nodeInfoRequest(),
      getInboxRequest({ limit: 1 }),
      getInboxRequest({ limit: 0 }),
      getChatRequest({ inboxFilter: { chat: bob } }),
    ] as const);
    expect(info.ok && info.value.software).toBe("in-test");
    expect(inbox.ok && inbox.value.address).toBe(alice);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error).toMatchObject({ code: -32602, data: { field: "limit" } });
    expect(chat.ok && chat.value.id).toBe(bob);
  });

  it("throws a typed RpcError carrying code, message and data", async () => {
    const client = createNeutralServiceClient({ url, auth: alice });
    const error = await client.sendMessage({ message: draft("spoof", bob, alice) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RpcError);
    expect(error).toMatchObject({ code: -32002, message: "Forbidden: from is not the caller", data: { reason: "from" }, status: 200 });

    const invalid = await client.getInbox({ inboxFilter: { form: alice } as never }).catch((e: unknown) => e);
    expect(invalid).toMatchObject({ code: -32602, data: { field: "inboxFilter.form" } });
  });

  it("surfaces 401 as RpcError -32001 with the HTTP status, for single calls and batches", async () => {
    const client = createNeutralServiceClient({ url });
    await expect(client.getInbox()).rejects.toMatchObject({ name: "RpcError", code: -32001, status: 401, data: { reason: "missing token" } });
    await expect(client.rpc.batch([nodeInfoRequest(), getInboxRequest()])).rejects.toMatchObject({ code: -32001, status: 401 });
    const before = authorizations.length;
    await createNeutralServiceClient({ url, auth: async () => alice }).getInbox();
    expect(authorizations.slice(before)).toEqual([`Bearer ${alice}`]);
  });

  it("sends notifications without expecting an answer", async () => {
    const client = createRpcClient({ url });
    await expect(client.notify(nodeInfoRequest())).resolves.toBeUndefined();
  });

  it("times out and aborts with RpcTransportError", async () => {
    const slow = createRpcClient({ url: `${url}/slow`, timeoutMs: 100 });
    await expect(slow.request(nodeInfoRequest())).rejects.toMatchObject({ name: "RpcTransportError", message: expect.stringContaining("timed out after 100 ms") });
    const controller = new AbortController();
    const pending = createRpcClient({ url: `${url}/slow` }).request(nodeInfoRequest(), { signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ message: expect.stringContaining("aborted") });
  });

  it("reports a response that is not JSON-RPC, and an unreachable node, as RpcTransportError", async () => {
    const html = await createRpcClient({ url: `${url}/html` }).request(nodeInfoRequest()).catch((e: unknown) => e);
    expect(html).toBeInstanceOf(RpcTransportError);
    expect(html).toMatchObject({ status: 502 });
    const down = await createRpcClient({ url: "http://127.0.0.1:1" }).request(nodeInfoRequest()).catch((e: unknown) => e);
    expect(down).toMatchObject({ name: "RpcTransportError", message: expect.stringContaining("network error") });
  });

  it("keeps custom headers and never lets them override auth or content type", async () => {
    const seenHeaders: Headers[] = [];
    const spy: typeof fetch = (input, init) => {
      seenHeaders.push(new Headers(init?.headers));
      return fetch(input, init);
    };
    const client = createRpcClient({ url, fetch: spy, auth: alice, headers: () => ({ "x-app": "test", "content-type": "text/plain" }) });
    await client.request(sendMessageRequest({ message: draft("headers") }), { headers: { "x-call": "1" } });
    expect(seenHeaders[0]!.get("x-app")).toBe("test");
    expect(seenHeaders[0]!.get("x-call")).toBe("1");
    expect(seenHeaders[0]!.get("content-type")).toBe("application/json");
    expect(seenHeaders[0]!.get("authorization")).toBe(`Bearer ${alice}`);
  });
});
