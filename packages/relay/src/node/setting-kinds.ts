// The kinds of setting a node has (an integer in a range, a duration, a URL, a secret…): each
// knows how to read the text an operator wrote, and says what is wrong with it naming where it
// was written (`--port`, `NEUTRAL_PORT (--port)`, `neutral.toml: port`). The table of the node's
// settings (settings.ts) is made of these.

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * One setting: its flag (also its key in a config file), its environment variable, its default and
 * its help. `Required` is true when the setting always has a value (it has a default), false when
 * it may be absent (no default: the node does without, or works one out).
 */
export interface Setting<T, Required extends boolean = boolean> {
  readonly flag: string;
  readonly env: string;
  readonly help: string;
  /** The default as an operator would write it; absent: none. */
  readonly default: string | undefined;
  /** What --help and the README say of the default when it is worked out or absent ("one per core"). */
  readonly defaultNote: string | undefined;
  /** Repeatable on the command line; a comma list in a variable; an array (or a comma list) in a file. */
  readonly multiple: boolean;
  /** Never echoed in an error, and best given in a variable or a file (flags show in `ps`). */
  readonly secret: boolean;
  /** For integers: the range, which the config tests try at and just past each end. */
  readonly range: { readonly min: number; readonly max: number } | undefined;
  /** The README section that says more, as a Markdown link target (`#limits-and-what-a-client-sees`). */
  readonly docs: string | undefined;
  readonly required: Required;
  /** Reads the text; throws ConfigError naming `name`, the place the text was written. */
  parse(texts: readonly string[], name: string): T;
}

interface Common {
  /** Default: the setting's key in kebab case (`maxBatch` → `max-batch`). */
  flag?: string;
  /** Default: `NEUTRAL_` and the flag in upper snake case. */
  env?: string;
  help: string;
  defaultNote?: string;
  docs?: string;
}

/** A setting before the table names it (its key gives the flag and the variable unless they are given). */
export type Declared<T, Required extends boolean> = Omit<Setting<T, Required>, "flag" | "env"> & { readonly flag: string | undefined; readonly env: string | undefined };

type Kind<T, Required extends boolean> = Pick<Setting<T, Required>, "default" | "required" | "parse"> & Partial<Pick<Setting<T, Required>, "multiple" | "secret" | "range">>;

/** A setting of `kind`: single, not secret and without a range unless the kind says so. */
function declare<T, Required extends boolean>(common: Common, kind: Kind<T, Required>): Declared<T, Required> {
  return { flag: common.flag, env: common.env, help: common.help, defaultNote: common.defaultNote, docs: common.docs, multiple: false, secret: false, range: undefined, ...kind };
}

const single = (texts: readonly string[]): string => texts[texts.length - 1]!;

/** An integer in `min..max` (both included), written in decimal. */
export function integer(options: Common & { min: number; max: number; default: number }): Declared<number, true>;
export function integer(options: Common & { min: number; max: number }): Declared<number, false>;
export function integer(options: Common & { min: number; max: number; default?: number }): Declared<number, boolean> {
  const { min, max } = options;
  return declare(options, {
    default: options.default === undefined ? undefined : String(options.default),
    range: { min, max },
    required: options.default !== undefined,
    parse(texts, name) {
      const text = single(texts);
      if (!/^\d+$/.test(text) || Number(text) < min || Number(text) > max) throw new ConfigError(`${name} must be an integer in ${min}..${max}, got ${JSON.stringify(text)}`);
      return Number(text);
    },
  });
}

/** Any text. */
export function text(options: Common & { default: string }): Declared<string, true> {
  return declare(options, { default: options.default, required: true, parse: single });
}

/** One of `values`. */
export function choice<const V extends string>(options: Common & { values: readonly V[]; default: V }): Declared<V, true> {
  const { values } = options;
  return declare(options, {
    default: options.default,
    required: true,
    parse(texts, name) {
      const text = single(texts);
      if (!(values as readonly string[]).includes(text)) throw new ConfigError(`${name} must be one of ${values.join(", ")}`);
      return text as V;
    },
  });
}

/** Text matching `pattern`, never echoed: a wrong secret may be a right one with a typo. */
export function secret(options: Common & { pattern: RegExp; expected: string }): Declared<string, false> {
  return declare(options, {
    default: undefined,
    secret: true,
    required: false,
    parse(texts, name) {
      const text = single(texts);
      if (!options.pattern.test(text)) throw new ConfigError(`${name} must be ${options.expected}`);
      return text;
    },
  });
}

const DURATION_UNITS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** Seconds from `90d`, `12h`, `30m`, `45s` or a plain number of seconds, up to `maxDays`. */
export function duration(options: Common & { default: string; maxDays: number }): Declared<number, true> {
  return declare(options, {
    default: options.default,
    required: true,
    parse(texts, name) {
      const text = single(texts);
      const match = /^(\d+)([smhd]?)$/.exec(text.trim());
      const seconds = match ? Number(match[1]) * DURATION_UNITS[(match[2] || "s") as keyof typeof DURATION_UNITS] : Number.NaN;
      if (!Number.isSafeInteger(seconds) || seconds > options.maxDays * 86_400) {
        throw new ConfigError(`${name} must be a duration of at most ${options.maxDays}d: seconds, or a number with s, m, h or d (got ${JSON.stringify(text)})`);
      }
      return seconds;
    },
  });
}

/** A base URL without its trailing slash, or a ConfigError naming `name`. */
export function baseUrl(name: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`${name} must be an http:// or https:// URL, got ${JSON.stringify(text.slice(0, 200))}`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username !== "" || url.password !== "" || url.search !== "" || url.hash !== "") {
    throw new ConfigError(`${name} must be an http:// or https:// base URL without credentials, query or fragment, got ${JSON.stringify(text.slice(0, 200))}`);
  }
  return url.href.replace(/\/+$/, "");
}

/** An http(s) base URL, kept without its trailing slash. */
export function url(options: Common): Declared<string, false> {
  return declare(options, { default: undefined, required: false, parse: (texts, name) => baseUrl(name, single(texts)) });
}

/**
 * A list: the flag repeated, or comma lists (in a flag, a variable or a file's string; a file may
 * also give an array). Empty items are dropped; flags replace the variable's list, which replaces the file's.
 */
export function list<T>(options: Common & { item: (text: string, name: string) => T; distinct?: (item: T) => string }): Declared<T[], true> {
  return declare(options, {
    default: undefined,
    multiple: true,
    required: true,
    parse(texts, name) {
      const items = texts
        .flatMap((text) => text.split(","))
        .map((item) => item.trim())
        .filter((item) => item !== "")
        .map((item) => options.item(item, name));
      if (options.distinct) {
        const seen = new Set<string>();
        for (const item of items) {
          const key = options.distinct(item);
          if (seen.has(key)) throw new ConfigError(`${name} ${key} is listed twice`);
          seen.add(key);
        }
      }
      return items;
    },
  });
}
