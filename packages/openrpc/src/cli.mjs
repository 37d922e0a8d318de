// The `neutral-openrpc` command: `generate`, `create`, `bundle`, `mock` and `test`. Returns an exit code; prints
// errors as one readable message (no stack) for mistakes in the input, and in full for anything else.
import { createRequire } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { bundle, bundleDocument } from "./bundle.mjs";
import { create } from "./create.mjs";
import { BUILT_IN_TARGETS, DocumentError, findStaleFiles, generate, readConfig, readDocument, validateDocument } from "./generate.mjs";

const { refuseExternalRefs } = createRequire(import.meta.url)("./lib/refs.cjs");

const HELP = `neutral-openrpc — a typed client, a server stub and docs from any OpenRPC 1.x document

Usage:
  neutral-openrpc generate --spec FILE --out DIR [--client] [--server] [--docs] [--bundle]
  neutral-openrpc generate --config FILE [--check] [--bundle]
  neutral-openrpc create DIR --spec FILE [--name NAME] [--bundle]
  neutral-openrpc bundle FILE --out OUT
  neutral-openrpc mock --spec FILE [--port N] [--host HOST] [--bundle]
  neutral-openrpc test URL --spec FILE [--header "Name: value"]... [--reporter table|tap|junit]
                       [--timeout-ms N] [--bundle]
  neutral-openrpc --help | --version

generate
  Writes each target into its own directory, which it owns: DIR/client, DIR/server, DIR/docs.
  A target's directory is cleared first, so never put hand-written files in it.
    --spec FILE       the OpenRPC document (JSON)
    --out DIR         where the targets go
    --client          the typed client (TypeScript; imports @neutral/client/rpc)
    --server          the server stub (TypeScript; served by @neutral/server)
    --docs            the API reference page (one HTML file)
                      (none of the three: all of them)
    --client-runtime MODULE, --server-runtime MODULE
                      import the runtime from MODULE instead of the published package
    --config FILE     instead of --spec/--out: a JSON file naming the spec and each target's
                      directory, relative to the file:
                        {"spec": "openrpc.json",
                         "targets": {"server": {"out": "src/generated"},
                                     "client": {"out": "client/src/generated", "runtime": "…"},
                                     "mine": {"out": "…", "component": "./my-component.cjs"}}}
                      (a target other than client/server/docs is an @open-rpc/generator custom
                      component of your own; see @neutral/openrpc/component)
    --check           with --config: write nothing; exit 1 listing the files that are out of date
                      with the spec (for CI)
    --bundle          resolve $refs into other files first (see bundle); also "bundle": true in
                      the config file

create
  Scaffolds a standalone server project for the document in DIR (which must not exist or be
  empty): package.json, the spec as openrpc.json, src/generated/ (the stub: never edit it), one
  handler per method in src/handlers/ (each throws "not implemented" until you write it),
  src/server.ts, a test replaying the spec's examples, and \`npm run generate\` to regenerate
  src/generated/ after you edit openrpc.json (then tsc names every handler you now owe).
    --spec FILE       the OpenRPC document (JSON)
    --name NAME       the package name (default: DIR's name)
    --bundle          resolve $refs into other files first; the project's openrpc.json is then the
                      bundled document, one self-contained file

bundle
  Writes FILE as one document: every $ref into another file (JSON or YAML, a path relative to the
  file that holds the $ref, with or without a #/pointer) is resolved and inlined once, at its first
  reference; the others point there. Local references (#/…) stay. URLs are not fetched.
    --out OUT         where the bundled document goes (JSON)

mock
  Serves a JSON-RPC 2.0 mock of the document until Ctrl-C, to build a client against before the
  server exists: each method answers the result of its first example whose params the call
  matches, else a value generated from its result schema (the same every time). Params are
  validated against the document; rpc.discover serves it. Event streams are not mocked (-32601);
  methods that need a token answer without one.
    --spec FILE       the OpenRPC document (JSON)
    --port N          default 8545 (0: a free port; the line printed says which)
    --host HOST       default 127.0.0.1
    --bundle          resolve $refs into other files first

test
  Checks the live server at URL against the document: sends every example of every method (by
  position and by name, as the method's paramStructure allows) and checks each result against the
  method's result schema; an error the method documents is accepted, any other fails. Then what
  the document alone can provoke: params its schemas refuse (-32602), a method that does not exist
  (-32601), a body that is not JSON (-32700), a request without a method (-32600), and each example
  pairing that carries the error it expects ("error": {"code": …}). Event streams are not run.
  It sends each example as written: run it against a server you can write to. Exit 1 if a check fails.
    --spec FILE       the OpenRPC document (JSON)
    --header H        an HTTP header for every request, "Name: value" (repeatable), e.g.
                      --header "Authorization: Bearer $TOKEN"
    --reporter R      table (default), tap (TAP 14) or junit (JUnit XML), on stdout
    --timeout-ms N    the time limit of each call (default 10000)
    --bundle          resolve $refs into other files first

Exit codes: 0 done, 1 failed (or stale, with --check), 2 bad usage.
`;

const usage = (message) => {
  process.stderr.write(`neutral-openrpc: ${message}\nRun neutral-openrpc --help for usage.\n`);
  return 2;
};

/**
 * One line per name that had to be suffixed, on stderr: generation still succeeds, but a name the
 * reader did not expect (`Pet2`) should never be a surprise.
 */
function reportRenames(renamed) {
  for (const { what, wanted, name, takenBy } of renamed) {
    process.stderr.write(`neutral-openrpc: note: ${what} is generated as ${name}: ${wanted} is ${takenBy === undefined ? "a name the generated code uses itself" : `taken by ${takenBy}`}\n`);
  }
}

async function runGenerate(args) {
  const { values } = parseArgs({
    args,
    options: {
      spec: { type: "string" },
      out: { type: "string" },
      config: { type: "string" },
      check: { type: "boolean" },
      client: { type: "boolean" },
      server: { type: "boolean" },
      docs: { type: "boolean" },
      "client-runtime": { type: "string" },
      "server-runtime": { type: "string" },
      bundle: { type: "boolean" },
    },
  });
  if (values.config) {
    if (values.spec || values.out) return usage("--config replaces --spec and --out; give one or the other");
    const config = { ...(await readConfig(values.config)), ...(values.bundle && { bundle: true }) };
    if (values.check) {
      const stale = await findStaleFiles(config);
      if (stale.length > 0) {
        process.stderr.write(`Generated files are out of date with ${path.relative(process.cwd(), config.spec)}. Regenerate and commit:\n  ${stale.map((f) => path.relative(process.cwd(), f)).join("\n  ")}\n`);
        return 1;
      }
      process.stdout.write("Generated files are up to date.\n");
      return 0;
    }
    reportRenames((await generate(config)).model.renamed);
    process.stdout.write(`Generated ${Object.keys(config.targets).join(", ")} from ${path.relative(process.cwd(), config.spec) || config.spec}.\n`);
    return 0;
  }
  if (values.check) return usage("--check needs --config (it compares each target's directory with a fresh generation)");
  if (!values.spec) return usage("generate needs --spec FILE (or --config FILE)");
  if (!values.out) return usage("generate needs --out DIR");
  const chosen = Object.keys(BUILT_IN_TARGETS).filter((name) => values[name]);
  const names = chosen.length > 0 ? chosen : Object.keys(BUILT_IN_TARGETS);
  const targets = Object.fromEntries(
    names.map((name) => {
      const runtime = values[`${name}-runtime`];
      return [name, { out: path.resolve(values.out, name), ...(runtime && { runtime }) }];
    }),
  );
  reportRenames((await generate({ spec: path.resolve(values.spec), targets, ...(values.bundle && { bundle: true }) })).model.renamed);
  process.stdout.write(`Generated ${names.join(", ")} into ${values.out}.\n`);
  return 0;
}

async function runCreate(args) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { spec: { type: "string" }, name: { type: "string" }, bundle: { type: "boolean" } } });
  if (positionals.length !== 1) return usage("create needs exactly one DIR");
  if (!values.spec) return usage("create needs --spec FILE");
  const dir = path.resolve(positionals[0]);
  const { files, renamed } = await create(dir, { spec: path.resolve(values.spec), name: values.name, ...(values.bundle && { bundle: true }) });
  reportRenames(renamed);
  process.stdout.write(
    `Created ${path.relative(process.cwd(), dir) || "."} (${files.length} files). Next:\n` +
      `  cd ${positionals[0]}\n  npm install\n  npm test        # replays the spec's examples: fails until the handlers are written\n` +
      `  edit src/handlers/*.ts, then npm start\n`,
  );
  return 0;
}

async function runBundle(args) {
  const { values, positionals } = parseArgs({ args, allowPositionals: true, options: { out: { type: "string" } } });
  if (positionals.length !== 1) return usage("bundle needs exactly one FILE");
  if (!values.out) return usage("bundle needs --out OUT");
  if (path.resolve(values.out) === path.resolve(positionals[0])) return usage("--out must be another file than FILE (it would replace the document with its references)");
  await bundle(path.resolve(positionals[0]), path.resolve(values.out));
  process.stdout.write(`Bundled ${positionals[0]} into ${values.out}.\n`);
  return 0;
}

async function runMock(args) {
  const { values } = parseArgs({ args, options: { spec: { type: "string" }, port: { type: "string" }, host: { type: "string" }, bundle: { type: "boolean" } } });
  if (!values.spec) return usage("mock needs --spec FILE");
  const port = values.port === undefined ? 8545 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return usage(`--port must be an integer in 0..65535, got ${JSON.stringify(values.port)}`);
  const spec = path.resolve(values.spec);
  const document = values.bundle ? await bundleDocument(spec) : await readDocument(spec);
  refuseExternalRefs(document, values.spec);
  validateDocument(document, values.spec);
  // Loaded only here: the mock runs on @neutral/server's built runtime, which generation (of that very
  // runtime's stub, in this repository) must not need.
  const { startMock } = await import("./mock.mjs");
  const mock = await startMock(document, { port, host: values.host ?? "127.0.0.1" });
  const title = document.info?.title || "the document";
  process.stdout.write(`Mock of ${title} listening on ${mock.url}${mock.streams.length > 0 ? ` (event streams not mocked: ${mock.streams.join(", ")})` : ""}\n`);
  await new Promise((resolve) => {
    for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, resolve);
  });
  await mock.close();
  return 0;
}

async function runTest(args) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      spec: { type: "string" },
      header: { type: "string", multiple: true },
      reporter: { type: "string" },
      "timeout-ms": { type: "string" },
      bundle: { type: "boolean" },
    },
  });
  if (positionals.length !== 1) return usage("test needs exactly one URL");
  let url;
  try {
    url = new URL(positionals[0]);
  } catch {
    return usage(`test needs an http(s) URL, got ${JSON.stringify(positionals[0])}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return usage(`test needs an http(s) URL, got ${JSON.stringify(positionals[0])}`);
  if (!values.spec) return usage("test needs --spec FILE");
  const reporter = values.reporter ?? "table";
  if (!["table", "tap", "junit"].includes(reporter)) return usage(`--reporter must be table, tap or junit, got ${JSON.stringify(reporter)}`);
  const timeoutMs = values["timeout-ms"] === undefined ? 10_000 : Number(values["timeout-ms"]);
  if (!Number.isInteger(timeoutMs) || timeoutMs < 1) return usage(`--timeout-ms must be a positive integer, got ${JSON.stringify(values["timeout-ms"])}`);
  const headers = {};
  for (const [index, header] of (values.header ?? []).entries()) {
    const colon = header.indexOf(":");
    // Never echoed: a header is often a token.
    if (colon < 1) return usage(`--header must be "Name: value" (header ${index + 1} has no name before a colon)`);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  const spec = path.resolve(values.spec);
  const document = values.bundle ? await bundleDocument(spec) : await readDocument(spec);
  refuseExternalRefs(document, values.spec);
  validateDocument(document, values.spec);
  // Loaded only here, as the mock: it runs on @neutral/server's built runtime.
  const { formatReport, runConformance } = await import("./conformance.mjs");
  const report = await runConformance(document, { url: url.href, headers, timeoutMs });
  process.stdout.write(formatReport(report, reporter));
  return report.failed > 0 ? 1 : 0;
}

export async function main(argv) {
  const [command, ...args] = argv;
  try {
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
      process.stdout.write(HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === "--version") {
      process.stdout.write(`${createRequire(import.meta.url)("../package.json").version}\n`);
      return 0;
    }
    if (args.includes("--help") || args.includes("-h")) {
      process.stdout.write(HELP);
      return 0;
    }
    if (command === "generate") return await runGenerate(args);
    if (command === "create") return await runCreate(args);
    if (command === "bundle") return await runBundle(args);
    if (command === "mock") return await runMock(args);
    if (command === "test") return await runTest(args);
    return usage(`unknown command ${JSON.stringify(command)}`);
  } catch (error) {
    if (error instanceof DocumentError || error?.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" || error?.code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
      process.stderr.write(`neutral-openrpc: ${error.message}\n`);
      return error instanceof DocumentError ? 1 : 2;
    }
    throw error;
  }
}
