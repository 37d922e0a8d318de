// `neutral-openrpc test URL --spec FILE`: checks a live JSON-RPC server against its OpenRPC document.
// Every example of every method is sent (by position and by name, as the method's `paramStructure`
// allows), and every result is checked against the method's result schema (@neutral/server's
// checks: unions explained, formats). A call may also be answered with an error the method
// documents (a bearer token the server refuses, an example signed long ago): that is conformant and
// reported as such; any other error fails. Then what can be provoked from the document alone: params
// its schemas refuse (-32602), a method that does not exist (-32601), a body that is not JSON
// (-32700), a request without a method (-32600), and each example pairing that carries the error it
// expects (`error` or `x-error`: `{ "code": … }`). Nothing is generated from schemas, so recursive
// ones cost nothing; each call has a time limit and checking an answer is bounded.
//
// It sends each example as it is written: run it against a server you can write to.
import { argsOf, resultProblemOf, RpcError } from "@neutral/server";
import { paramsAs, serviceDefinitionOf } from "./service-definition.mjs";

/** The JSON-RPC errors any server must answer this way (JSON-RPC 2.0 §5.1). */
const STANDARD = { parse: -32700, invalidRequest: -32600, methodNotFound: -32601, invalidParams: -32602, internal: -32603 };

/** Values tried, in order, as a param's value its schema refuses (no value is generated from a schema). */
const WRONG_VALUES = [{ "neutral-openrpc-test": true }, 123456789, "neutral-openrpc-test", true, [], 1.5, -1, null];

/** A method no document has. */
const MISSING_METHOD = "neutral_openrpc_test.no_such_method";

/**
 * @typedef {object} ConformanceCase
 * @property {string} method
 * @property {string} name what was sent: an example's name, or the provocation
 * @property {"by-position" | "by-name" | "raw"} call how the params went
 * @property {"pass" | "fail" | "skip"} outcome
 * @property {string} detail what was seen
 * @property {number} ms
 */

/**
 * Runs the checks of `document` against the server at `url`.
 * @param {Record<string, unknown>} document a valid OpenRPC document with local references only
 * @param {{ url: string, headers?: Record<string, string>, timeoutMs?: number, fetch?: typeof fetch }} options
 * @returns {Promise<{ title: string, url: string, cases: ConformanceCase[], passed: number, failed: number, skipped: number }>}
 */
export async function runConformance(document, { url, headers = {}, timeoutMs = 10_000, fetch: fetchImpl = fetch }) {
  const { model, service } = serviceDefinitionOf(document);
  /** @type {ConformanceCase[]} */
  const cases = [];
  let nextId = 1;

  /** Posts `body` (text); resolves with the parsed answer, or a problem in words. */
  async function post(body) {
    const started = performance.now();
    try {
      const response = await fetchImpl(url, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json", ...headers },
        body,
        signal: AbortSignal.timeout(timeoutMs),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      if (text.trim() === "") return { status: response.status, ms };
      try {
        return { status: response.status, answer: JSON.parse(text), ms };
      } catch {
        return { status: response.status, ms, problem: `HTTP ${response.status}, not JSON: ${text.slice(0, 200)}` };
      }
    } catch (error) {
      const ms = performance.now() - started;
      const why = error?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : `the request failed: ${error?.cause?.code ?? error?.message ?? error}`;
      return { ms, problem: why };
    }
  }

  /** Records a case; `check` turns the exchange into [outcome, detail]. */
  async function run(method, name, call, body, check) {
    const exchange = await post(body);
    const [outcome, detail] = exchange.problem ? ["fail", exchange.problem] : check(exchange);
    cases.push({ method, name, call, outcome, detail, ms: Math.round(exchange.ms) });
  }

  const errorText = (error) => `${error.code}: ${String(error.message).slice(0, 200)}`;

  for (const method of model.methods) {
    if (method.subscription) {
      cases.push({ method: method.name, name: "event stream", call: "raw", outcome: "skip", detail: "event streams (x-subscription) are not run", ms: 0 });
      continue;
    }
    const documented = new Set(method.errors.map((error) => error.code));
    const structures = method.paramStructure === "either" ? ["by-position", "by-name"] : [method.paramStructure];
    const paramsOf = (values, structure) => paramsAs(method, values, structure);
    const request = (params, notification) => JSON.stringify({ jsonrpc: "2.0", method: method.name, params, ...(!notification && { id: nextId++ }) });

    /** An example's answer: a result that matches the schema, or an error the method documents. */
    const checkAnswer = (example) => ({ status, answer }) => {
      if (method.notification) {
        return answer === undefined ? ["pass", `answered nothing (HTTP ${status}), as a notification is`] : ["fail", `a notification was answered: ${JSON.stringify(answer).slice(0, 200)}`];
      }
      if (answer === undefined || typeof answer !== "object" || answer === null || Array.isArray(answer)) return ["fail", `HTTP ${status}, no JSON-RPC response object`];
      if (answer.error !== undefined) {
        const code = answer.error?.code;
        if (documented.has(code) && code !== STANDARD.internal) return ["pass", `answered an error the method documents (${errorText(answer.error)})`];
        return ["fail", `answered error ${errorText(answer.error ?? {})}, which the method does not document`];
      }
      if (!("result" in answer)) return ["fail", "the response has neither result nor error"];
      let problem;
      try {
        problem = resultProblemOf(service, method.name, answer.result);
      } catch (error) {
        return ["fail", `the result could not be checked: ${error instanceof RangeError ? "nested too deep" : error?.message ?? error}`];
      }
      if (problem) return ["fail", `the result does not match its schema: ${fieldOf(problem.path)} ${problem.reason}`];
      return ["pass", example?.result === undefined ? "answered a result that matches its schema" : "the result matches its schema"];
    };

    for (const example of method.examples) {
      const values = example.params.map((param) => [param.name, param.value]);
      const expected = expectedError(example);
      for (const structure of structures) {
        const body = request(paramsOf(values, structure), method.notification && expected === undefined);
        if (expected !== undefined) {
          await run(method.name, `${example.name ?? "example"} (error ${expected})`, structure, body, ({ answer }) =>
            answer?.error?.code === expected ? ["pass", `answered ${errorText(answer.error)}`] : ["fail", `expected error ${expected}, got ${JSON.stringify(answer).slice(0, 200)}`],
          );
        } else {
          await run(method.name, example.name ?? "example", structure, body, checkAnswer(example));
        }
      }
    }
    if (method.examples.length === 0 && method.params.every((param) => !param.required)) {
      // No example, no param needed: the call without params must answer its schema.
      await run(method.name, "without params (no example)", structures[0], request(paramsOf([], structures[0]), method.notification), checkAnswer(undefined));
    }

    // Params the document refuses: the first param that can be given a value its schema refuses.
    const base = method.examples[0]?.params.map((param) => [param.name, param.value]) ?? [];
    const wrong = refusedParams(service, method, base);
    if (wrong === undefined) {
      if (method.params.length > 0) cases.push({ method: method.name, name: "invalid params", call: "raw", outcome: "skip", detail: "no value tried is refused by the param schemas", ms: 0 });
    } else {
      const structure = structures.includes("by-name") ? "by-name" : "by-position";
      await run(method.name, `invalid params (${wrong.field})`, structure, request(paramsOf(wrong.values, structure), false), ({ answer }) => {
        const code = answer?.error?.code;
        if (code === STANDARD.invalidParams) return ["pass", `answered ${errorText(answer.error)}`];
        // Refused before its params were looked at (a token it wants): nothing is known of them.
        if (documented.has(code) && code !== STANDARD.internal) return ["skip", `answered ${errorText(answer.error)}, an error the method documents, before its params could be checked (a --header it needs?)`];
        return ["fail", `params the schema refuses (${wrong.field} ${wrong.reason}) were answered ${JSON.stringify(answer).slice(0, 200)}, not -32602`];
      });
    }
  }

  const expectCode = (code) => ({ answer }) =>
    answer?.error?.code === code ? ["pass", `answered ${errorText(answer.error)}`] : ["fail", `expected error ${code}, got ${JSON.stringify(answer ?? null).slice(0, 200)}`];
  await run("(server)", "a method that does not exist", "raw", JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: MISSING_METHOD, params: [] }), expectCode(STANDARD.methodNotFound));
  await run("(server)", "a body that is not JSON", "raw", '{"jsonrpc": "2.0", "method": ', expectCode(STANDARD.parse));
  await run("(server)", "a request without a method", "raw", JSON.stringify({ jsonrpc: "2.0", id: nextId++ }), expectCode(STANDARD.invalidRequest));

  const count = (outcome) => cases.filter((c) => c.outcome === outcome).length;
  return { title: model.title || "the document", url, cases, passed: count("pass"), failed: count("fail"), skipped: count("skip") };
}

/** An example pairing's expected error code: `error` or `x-error` (`{ "code": … }`), as documents that show errors write it. */
function expectedError(example) {
  for (const key of ["error", "x-error"]) {
    const error = example[key];
    if (error && typeof error === "object" && Number.isInteger(error.code)) return error.code;
  }
  return undefined;
}

/** `/payment/address` → `result.payment.address`. */
const fieldOf = (pointer) =>
  pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : `${field}.${part}`), "result");

/**
 * `base` (an example's params, by name) with one param given a value its schema refuses, the
 * refusal as the dispatcher words it; undefined when no value tried is refused.
 */
function refusedParams(service, method, base) {
  for (const param of method.params) {
    for (const value of WRONG_VALUES) {
      if (value === null && param.required !== true) continue; // null is "absent" for an optional param
      const values = [...base.filter(([name]) => name !== param.name), [param.name, value]];
      const params = paramsAs(method, values, method.paramStructure === "by-position" ? "by-position" : "by-name");
      try {
        argsOf(service, method.name, structuredClone(params));
      } catch (error) {
        if (error instanceof RpcError && error.code === STANDARD.invalidParams && error.data?.param === param.name) {
          return { values, field: error.data.field ?? param.name, reason: error.data.reason ?? "is invalid" };
        }
      }
    }
  }
  return undefined;
}

/**
 * The report as text: a table (default), TAP 14, or JUnit XML.
 * @param {Awaited<ReturnType<typeof runConformance>>} report
 * @param {"table" | "tap" | "junit"} reporter
 */
export function formatReport(report, reporter = "table") {
  const label = (c) => `${c.method}: ${c.name} (${c.call})`;
  if (reporter === "tap") {
    const lines = ["TAP version 14", `1..${report.cases.length}`];
    report.cases.forEach((c, i) => {
      if (c.outcome === "skip") lines.push(`ok ${i + 1} - ${label(c)} # SKIP ${c.detail}`);
      else if (c.outcome === "pass") lines.push(`ok ${i + 1} - ${label(c)}`);
      else lines.push(`not ok ${i + 1} - ${label(c)}`, "  ---", `  message: ${JSON.stringify(c.detail)}`, `  duration_ms: ${c.ms}`, "  ...");
    });
    lines.push(`# pass ${report.passed}`, `# fail ${report.failed}`, `# skip ${report.skipped}`);
    return lines.join("\n") + "\n";
  }
  if (reporter === "junit") {
    const xml = (text) => String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
    const seconds = (ms) => (ms / 1000).toFixed(3);
    const total = report.cases.reduce((sum, c) => sum + c.ms, 0);
    const lines = [
      '<?xml version="1.0" encoding="UTF-8"?>',
      `<testsuites name="neutral-openrpc test" tests="${report.cases.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds(total)}">`,
      `  <testsuite name="${xml(report.title)}" tests="${report.cases.length}" failures="${report.failed}" skipped="${report.skipped}" time="${seconds(total)}">`,
      `    <properties><property name="url" value="${xml(report.url)}"/></properties>`,
    ];
    for (const c of report.cases) {
      const open = `    <testcase classname="${xml(c.method)}" name="${xml(`${c.name} (${c.call})`)}" time="${seconds(c.ms)}"`;
      if (c.outcome === "pass") lines.push(`${open}/>`);
      else if (c.outcome === "skip") lines.push(`${open}><skipped message="${xml(c.detail)}"/></testcase>`);
      else lines.push(`${open}><failure message="${xml(c.detail)}"/></testcase>`);
    }
    lines.push("  </testsuite>", "</testsuites>");
    return lines.join("\n") + "\n";
  }
  const mark = { pass: "✓", fail: "✗", skip: "-" };
  const width = Math.min(70, Math.max(...report.cases.map((c) => label(c).length)));
  const lines = [`${report.title} at ${report.url}: ${report.cases.length} checks`];
  for (const c of report.cases) lines.push(`  ${mark[c.outcome]} ${label(c).padEnd(width)}  ${c.detail}${c.outcome === "skip" ? "" : ` (${c.ms} ms)`}`);
  lines.push(`${report.passed} passed, ${report.failed} failed, ${report.skipped} skipped`);
  return lines.join("\n") + "\n";
}
