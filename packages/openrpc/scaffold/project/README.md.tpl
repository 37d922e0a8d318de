# {{name}}

A JSON-RPC 2.0 server for {{title}}, made from its OpenRPC document with
`neutral-openrpc create` (from [`@neutral/openrpc`](https://www.npmjs.com/package/@neutral/openrpc))
and served by [`@neutral/server`](https://www.npmjs.com/package/@neutral/server).

```sh
npm install
npm test     # builds, then replays the spec's examples: each fails until its handler is written
npm start    # http://127.0.0.1:8545/ (PORT and HOST change it)
```

## The files

| file | what | who writes it |
|---|---|---|
| `openrpc.json` | the spec: the methods, their params, results, errors and examples | you (the project's copy of it) |
| `neutral-openrpc.json` | where `npm run generate` reads the spec and writes the stub | you (rarely) |
| `src/generated/` | the server stub: the `Handlers` type (one function per method), the types of every param and result, the method descriptors, the params' validators (compiled from the schemas when it was generated), the document (for `rpc.discover`) and its examples | **generated: never edit it**; `npm run generate` clears and rewrites it |
| `src/handlers/*.ts` | one handler per method, each in a file of its own | you: each starts by throwing the not-implemented error |
| `src/handlers/index.ts` | the `handlers` object: every handler, by method name, typed `Handlers` | you |
| `src/not-implemented.ts` | `notImplemented(method)`: what an unwritten handler throws (JSON-RPC -32601, `data.method`) | you |
| `src/server.ts` | the dispatcher and the HTTP server; `startServer({ port, host })` for tests | you |
| `src/examples.test.ts` | one `node:test` test per example pairing of the spec: sends its params, expects its result | you |
| `package.json`, `tsconfig.json`, `.gitignore` | the usual | you |

Everything but `src/generated/` was written once by `neutral-openrpc create` and is yours from
then on: regenerating never touches it.

## Implementing a handler

Each file of `src/handlers/` exports one function typed from the stub, e.g.

```ts
export const getPet: Handlers["get_pet"] = async (args, context): Promise<GetPetResult> => {
  throw notImplemented("get_pet");
};
```

Keep the spelled-out return type (`Promise<…Result>`): TypeScript widens a bare literal an `async`
function returns (`"pong"`, a value of an enum) unless its return type is a Promise type, and a
handler's type allows a value or a Promise of one. With it, `return "pong"` needs no `as const`.

`args` are the method's params by name, already validated against their schemas, defaults filled
in, whether the client sent them by position or by name. Return the result (its type is in
`src/generated/types.ts`), or throw an `RpcError(code, message, data?)` from `@neutral/server` to
answer an error (the spec's own are listed in `src/generated/errors.ts`). Results are checked against
their schemas while `NODE_ENV` is `development` or `test`, and by the example tests (`npm test`). Anything else thrown is
answered -32603 "Internal error" and logged by `src/server.ts`. A method answered as an event stream
(`x-subscription`) returns an async iterable of its notifications instead (an `async function*`).

Methods with `"x-requires-auth"` are refused (HTTP 401) until `src/server.ts` passes an
`authenticate` option to `createHttpHandler`.

## Changing the spec

1. Edit `openrpc.json` (add a method, a param, an example…).
2. `npm run generate` rewrites `src/generated/` from it (`npm run generate -- --check` only says
   whether it is up to date: for CI).
3. `npm run build` (or `npx tsc --noEmit -p tsconfig.json`): the compiler now names every handler
   you owe. A new method is reported in `src/handlers/index.ts` as
   `Property 'new_method' is missing in type …`; a changed param or result, in that method's handler.
4. Write what it asks for (a new method: a new file in `src/handlers/`, added to `index.ts`), and
   `npm test`.

## Scripts

| script | does |
|---|---|
| `npm run generate` | `neutral-openrpc generate --config neutral-openrpc.json` |
| `npm run build` | `tsc -p tsconfig.json` into `dist/` |
| `npm start` | `node dist/server.js` (build first) |
| `npm test` | builds, then `node --test` (runs `dist/**/*.test.js`) |
