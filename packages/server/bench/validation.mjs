// The relay's request validation cost per call: neutralService's param checks as the dispatcher
// runs them now (the stub's validators, compiled at generation time by Ajv with formats;
// union-aware errors; defaults at any depth) ÷ the baseline, the
// same schemas compiled as the dispatcher compiled them before (plain Ajv draft-07, formats off,
// nothing after a pass), in the same run. Medians of interleaved rounds.
//
//   node bench/validation.mjs           (after `pnpm build`; BENCH_ROUNDS=7 BENCH_CALLS=200000 by default)
import { Ajv } from "ajv";
import { createDispatcher } from "../dist/index.js";
import { service } from "../dist/neutral-service.js";
import { compileParamValidator, createServiceSchemas, DOCUMENT_ID } from "../dist/validation.js";
import { intoDocument } from "../dist/schema-context.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const CALLS = Number(process.env.BENCH_CALLS ?? 200_000);

const address = (byte) => "0x" + byte.repeat(20);
/** The params of the calls a relay answers most, as clients send them. */
const calls = [
  {
    method: "neutralService_sendMessage",
    params: () => ({
      message: { message: "ab".repeat(400), from: address("11"), to: address("22"), signature: "0x" + "cd".repeat(65), timestamp: 1_767_225_600_000 },
    }),
  },
  { method: "neutralService_getInbox", params: () => ({ inboxFilter: { from: address("22"), direction: "all" }, limit: 20, after: "12345" }) },
  { method: "neutralService_getProof", params: () => ({ ids: Array.from({ length: 20 }, (_, i) => String(1000 + i)), since: 17 }) },
];

function baselineValidators() {
  const ajv = new Ajv({ allErrors: false, strict: false, strictNumbers: true, validateFormats: false, allowUnionTypes: true });
  const { schemas, contentDescriptors } = service.document.components;
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas, contentDescriptors } });
  return (method) =>
    service.methods[method].params.map((param) => {
      const validate = ajv.compile(intoDocument(param.schema));
      return (value) => {
        if (!validate(value)) throw new Error(String(validate.errors?.[0]?.message));
      };
    });
}

/** What the relay runs: the stub's validators compiled at generation time, with the union and default walkers. */
function currentValidators() {
  const schemas = createServiceSchemas(service.document);
  return (method) => service.methods[method].params.map((param, i) => compileParamValidator(param, schemas, service.validators[method][i]));
}

/**
 * ns per call of checking `call`'s params with `validators`. Each call checks params of its own, as
 * parsed from a request (defaults are filled into them): made in chunks, outside the timing.
 */
function measure(validators, call) {
  const names = service.methods[call.method].params.map((param) => param.name);
  const CHUNK = 4096;
  let elapsed = 0n;
  for (let done = 0; done < CALLS; done += CHUNK) {
    const inputs = Array.from({ length: CHUNK }, call.params);
    const start = process.hrtime.bigint();
    for (let i = 0; i < CHUNK; i++) {
      const args = inputs[i];
      for (let p = 0; p < names.length; p++) {
        const value = args[names[p]];
        if (value !== undefined) validators[p](value);
      }
    }
    elapsed += process.hrtime.bigint() - start;
  }
  return Number(elapsed) / (Math.ceil(CALLS / CHUNK) * CHUNK);
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const baseline = baselineValidators();
const current = currentValidators();
console.log(`request validation per call, neutralService's params: now ÷ before (plain Ajv, formats off), ${ROUNDS} interleaved rounds of ${CALLS} calls`);
console.log("method                          before ns   now ns   ratio");
for (const call of calls) {
  const before = baseline(call.method);
  const now = current(call.method);
  measure(before, call);
  measure(now, call);
  const ratios = [];
  const beforeNs = [];
  const nowNs = [];
  for (let round = 0; round < ROUNDS; round++) {
    const b = measure(before, call);
    const n = measure(now, call);
    beforeNs.push(b);
    nowNs.push(n);
    ratios.push(n / b);
  }
  console.log(`${call.method.padEnd(32)}${median(beforeNs).toFixed(0).padStart(9)}${median(nowNs).toFixed(0).padStart(9)}${median(ratios).toFixed(2).padStart(8)}`);
}

// What a server pays when it starts: its first dispatcher, param checks compiled from the schemas
// (a stub without validators) or taken from the stub (compiled at generation time). Each in a fresh
// service object, so nothing is cached; medians of interleaved rounds.
const handlers = Object.fromEntries(Object.keys(service.methods).map((name) => [name, () => null]));
const startMs = (withValidators) => {
  const fresh = withValidators ? { ...service } : { methods: service.methods, document: service.document };
  const started = process.hrtime.bigint();
  createDispatcher({ service: fresh, handlers });
  return Number(process.hrtime.bigint() - started) / 1e6;
};
startMs(true);
startMs(false);
const compiledMs = [];
const carriedMs = [];
for (let round = 0; round < ROUNDS; round++) {
  compiledMs.push(startMs(false));
  carriedMs.push(startMs(true));
}
console.log(`\nfirst dispatcher of neutralService: params compiled at start ${median(compiledMs).toFixed(1)} ms, validators compiled at generation time ${median(carriedMs).toFixed(1)} ms (${(median(carriedMs) / median(compiledMs)).toFixed(2)}×)`);
