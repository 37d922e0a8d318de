// @ts-check
// Identifiers derived from an OpenRPC document's names: deterministic (the same document always gives
// the same names) and collision-free (a name already taken gets the next free numeric suffix, in
// document order, so adding a method or schema never renames an earlier one).
"use strict";

/** Words TypeScript/JavaScript forbids as a function or binding name. */
const RESERVED_WORDS = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "import in instanceof new null return super switch this throw true try typeof var void while with yield let static " +
    "implements interface package private protected public await arguments eval undefined"
  ).split(" "),
);

/**
 * Type names the generated files use themselves (or that would shadow a global they rely on); a
 * schema or method that would get one of them gets a suffix instead.
 */
const RESERVED_TYPE_NAMES = new Set(
  (
    "Array ReadonlyArray Record Promise PromiseLike Partial Required Readonly Pick Omit Exclude Extract NonNullable Object String " +
    "Number Boolean Symbol BigInt Error Date Map Set Function Uint8Array Iterable AsyncIterable JSON Math " +
    "Handlers MethodName ErrorName ExamplePairing T"
  ).split(" "),
);

/**
 * `get_pet_by_id` → [get, pet, by, id]; `eth_signTypedData_v4` → [eth, sign, Typed, Data, v4]; `HTTPServer` → [HTTP, Server].
 * @param {string} name
 * @returns {string[]}
 */
function words(name) {
  return String(name)
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/** @param {string} word */
const upperFirst = (word) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * `get_pet_by_id` → `getPetById`, `HTTPServer_get` → `httpServerGet`; an empty or symbol-only name gives "".
 * @param {string} name
 */
function camelCase(name) {
  const [head, ...rest] = words(name);
  if (head === undefined) return "";
  // A leading acronym is lowercased whole (`URL` → `url`, not `uRL`).
  const first = /^[A-Z0-9]+$/.test(head) ? head.toLowerCase() : head.charAt(0).toLowerCase() + head.slice(1);
  return first + rest.map(upperFirst).join("");
}

/**
 * A word written in capitals (`BLOCK`, `ID`, `V4`): letters all upper case, at least one.
 * @param {string | undefined} word
 */
const isCapitals = (word) => word !== undefined && /^[A-Z0-9]*[A-Z][A-Z0-9]*$/.test(word);

/**
 * `get_pet_by_id` → `GetPetById`. Two words written in capitals stay apart with `_` (`BLOCK_ID` →
 * `BLOCK_ID`, not `BLOCKID`); a capitalised word beside another kind is joined as is (`HTTPServer`,
 * `getHTTP_status` → `GetHTTPStatus`).
 * @param {string} name
 */
function pascalCase(name) {
  const parts = words(name);
  return parts.map((word, i) => (i > 0 && isCapitals(word) && isCapitals(parts[i - 1]) ? `_${word}` : upperFirst(word))).join("");
}

/**
 * Makes `candidate` a legal identifier: a leading digit gets `_`, a reserved word a trailing `_`.
 * @param {string} candidate
 * @param {string} fallback what an empty `candidate` (a name of symbols only) becomes
 */
function identifier(candidate, fallback) {
  let name = candidate || fallback;
  if (/^[0-9]/.test(name)) name = `_${name}`;
  if (RESERVED_WORDS.has(name)) name = `${name}_`;
  return name;
}

/**
 * Makes a PascalCase `candidate` a legal type name: one that starts with a digit gets a `T` (`2faCode` → `T2faCode`).
 * @param {string} candidate
 * @param {string} [fallback] what an empty `candidate` becomes (a candidate that cannot be empty needs none)
 */
function typeName(candidate, fallback = "") {
  const name = candidate || fallback;
  return /^[0-9]/.test(name) ? `T${name}` : name;
}

/**
 * Hands out names: `take(base, derive)` returns the first of `base`, `base2`, `base3`, … for which
 * every name `derive(candidate)` lists is still free, and marks them taken.
 * @param {Iterable<string>} [taken] names never handed out
 */
function createNamespace(taken = []) {
  /** Each name handed out or reserved → what holds it (undefined: reserved, a name the generated code uses). */
  /** @type {Map<string, string | undefined>} */
  const used = new Map([...taken].map((name) => [name, undefined]));
  /** @type {{ what: string, wanted: string, name: string, takenBy: string | undefined }[]} */
  const renamed = [];
  return {
    /** @param {string} name */
    has: (name) => used.has(name),
    /**
     * @param {string} base
     * @param {(candidate: string) => string[]} [derive] the names a candidate takes (default: itself)
     * @param {string} [what] what the name is for (`schema "pet"`), recorded when it cannot have `base`
     * @returns {string}
     */
    take(base, derive = (name) => [name], what = base) {
      for (let n = 1; ; n++) {
        const candidate = n === 1 ? base : `${base}${n}`;
        const names = derive(candidate);
        if (names.every((name) => !used.has(name))) {
          names.forEach((name) => used.set(name, what));
          if (n > 1) {
            const clash = derive(base).find((name) => used.has(name));
            renamed.push({ what, wanted: base, name: candidate, takenBy: clash === undefined ? undefined : used.get(clash) });
          }
          return candidate;
        }
      }
    },
    /** The names handed out with a suffix, and why: another took the name first, or the generated code uses it. */
    renamed: () => renamed.slice(),
  };
}

/**
 * The part of each method name a function is named after. When every method (two or more) shares
 * one `prefix_` (`neutralService_getInbox`, `neutralService_send`), the prefix is the service's
 * namespace and is left out (`getInbox`); otherwise the whole name is used (`eth_getBalance` beside
 * `net_version` → `ethGetBalance`, `create_pet` → `createPet`, `rpc.discover` → `rpcDiscover`).
 * Names that are plain lower-case snake_case throughout (`get_pet`, `get_owner`) share a verb, not a
 * namespace: they keep it (`getPet`, `getOwner`, not `pet`, `owner`).
 * @param {string[]} methodNames
 * @returns {string | undefined}
 */
function sharedPrefix(methodNames) {
  const prefixes = methodNames.map((name) => /^([A-Za-z][A-Za-z0-9]*)_(?=[A-Za-z])/.exec(name)?.[1]);
  const first = prefixes[0];
  if (first === undefined || methodNames.length < 2 || !prefixes.every((p) => p === first)) return undefined;
  if (methodNames.every((name) => /^[a-z0-9]+(_[a-z0-9]+)*$/.test(name))) return undefined;
  return first;
}

module.exports = { words, camelCase, pascalCase, identifier, typeName, createNamespace, sharedPrefix, RESERVED_WORDS, RESERVED_TYPE_NAMES };
