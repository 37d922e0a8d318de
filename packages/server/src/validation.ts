import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ParamDescriptor } from "./descriptor.js";
import { RpcError } from "./errors.js";

/** Compiles each param's schema once; a failing value becomes -32602 naming the field. */
export function compileParamValidator(param: ParamDescriptor, ajv: Ajv): (value: unknown) => void {
  const validate: ValidateFunction = ajv.compile(param.schema);
  return (value) => {
    if (!validate(value)) throw toInvalidParams(param.name, validate.errors?.[0]);
  };
}

export function createAjv(): Ajv {
  // allErrors off: the first failure is reported, and validation stops early on hostile input.
  return new Ajv({ allErrors: false, strict: true, strictTypes: false, allowUnionTypes: true });
}

/** `/from` under param `inboxFilter` → `inboxFilter.from`; array indexes as `[i]`. */
function fieldName(param: string, pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .reduce((field, part) => (/^\d+$/.test(part) ? `${field}[${part}]` : `${field}.${part}`), param);
}

function toInvalidParams(param: string, error: ErrorObject | undefined): RpcError {
  if (!error) return RpcError.invalidParams(param, "is invalid", { param });
  const path = error.instancePath;
  if (error.keyword === "additionalProperties") {
    const member = String((error.params as { additionalProperty: string }).additionalProperty);
    const pointer = `${path}/${member}`;
    return RpcError.invalidParams(fieldName(param, pointer), "is not a known member", { param, path: pointer });
  }
  if (error.keyword === "required") {
    const member = String((error.params as { missingProperty: string }).missingProperty);
    const pointer = `${path}/${member}`;
    return RpcError.invalidParams(fieldName(param, pointer), "is required", { param, path: pointer });
  }
  return RpcError.invalidParams(fieldName(param, path), describe(error), { param, path });
}

function describe(error: ErrorObject): string {
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "pattern":
      return `must match ${String(p.pattern)}`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "type":
      return `must be ${String(p.type)}`;
    default:
      return error.message ?? "is invalid";
  }
}
