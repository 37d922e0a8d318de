import type { ServiceDefinition } from "@neutral/server";

/** A target: where it goes, and (for a project's own) the custom component that renders it. */
export interface TargetOptions {
  /** The folder the target owns: cleared and rewritten by every run. */
  out: string;
  /** A custom @open-rpc/generator component (a target other than client/server/docs). */
  component?: string;
  /** `typescript` (default) or `html`: which of the component's template lists to run. */
  language?: string;
  /** client/server: the module the generated code imports its runtime from. */
  runtime?: string;
  [option: string]: unknown;
}

export interface GenerateOptions {
  /** Path of the OpenRPC document (JSON). */
  spec: string;
  /** Target name (client, server, docs, or a project's own) → its options. */
  targets: Record<string, TargetOptions>;
  /** How the do-not-edit header names the spec. Default: its file name. */
  specName?: string;
  /** Resolve `$ref`s into other files first (see `bundleDocument`). */
  bundle?: boolean;
}

/** A mistake in the input (the document, a config file): its message names the place. */
export class DocumentError extends Error {}

export const BUILT_IN_TARGETS: Record<"client" | "server" | "docs", { component: string; language: string; defaults: Record<string, unknown> }>;

/** Generates every target; throws `DocumentError` for an invalid document, leaving every folder as it was. */
/**
 * A name that could not be what the document's name gives (`Pet` for schema "pet" when schema "Pet"
 * came first): it got a numeric suffix. The CLI prints each as a note.
 */
export interface Renamed {
  /** What the name is for: `schema "pet"`, `method "get_pet"`, `the types of method "get_pet"`. */
  what: string;
  /** The name it would have had. */
  wanted: string;
  /** The name it got. */
  name: string;
  /** What took `wanted` first; undefined: a name the generated code uses itself. */
  takenBy: string | undefined;
}

export function generate(options: GenerateOptions): Promise<{ model: { renamed: Renamed[]; [key: string]: unknown } }>;
/** Generates into a temp folder and lists the files of each target's folder that differ (empty: up to date). */
export function findStaleFiles(options: GenerateOptions): Promise<string[]>;
/** Reads a config file (`{"spec", "targets"}`, paths relative to it) into options with absolute paths. */
export function readConfig(configPath: string): Promise<GenerateOptions>;
export function readDocument(specPath: string): Promise<unknown>;
export function validateDocument(document: unknown, name?: string): void;
export function headerFor(specName: string): string;

export interface CreateOptions {
  /** Path of the OpenRPC document the project is scaffolded from. */
  spec: string;
  /** The package name (default: the folder's name). */
  name?: string;
  /** Resolve `$ref`s into other files first; the project's openrpc.json is then the bundled document. */
  bundle?: boolean;
}

/**
 * Reads a document and resolves its `$ref`s into other files (JSON or YAML, relative to it) into one
 * document with local references only; URLs are not fetched. A `DocumentError` names what fails.
 */
export function bundleDocument(specPath: string): Promise<Record<string, unknown>>;
/** Whether a document has a `$ref` into another file or a URL: only such a document needs bundling. */
export function hasExternalRefs(document: unknown): boolean;
/** Bundles `input` into the JSON file `output` once the result is a valid OpenRPC document (else nothing is written); returns the document. */
export function bundle(input: string, output: string): Promise<Record<string, unknown>>;
/** Scaffolds a standalone server project in `dir` (which must not exist or be empty). */
export function create(dir: string, options: CreateOptions): Promise<{ files: string[]; renamed: Renamed[] }>;

/** A running mock (`startMock`). */
export interface RunningMock {
  /** Where it answers JSON-RPC (POST), e.g. `http://127.0.0.1:8545/`. */
  readonly url: string;
  /** The event-stream methods (`x-subscription`): not mocked, answered -32601. */
  readonly streams: string[];
  close(): Promise<void>;
}
/**
 * Serves a JSON-RPC mock of a valid OpenRPC document (local references only; see `bundleDocument`):
 * each method answers its first example whose params the call matches, else a value generated from
 * its result schema (the same each time); params are validated; rpc.discover serves the document.
 */
export function startMock(document: object, options?: { port?: number; host?: string }): Promise<RunningMock>;
/** The service definition and handlers `startMock` serves, for a server of your own (`@neutral/server`'s `createDispatcher`). */
export function mockService(document: object): Promise<{ service: ServiceDefinition; handlers: Record<string, (args: Record<string, unknown>) => unknown>; streams: string[] }>;

/** One check of `runConformance`. */
export interface ConformanceCase {
  /** The method, or "(server)" for the checks of the server as a whole. */
  method: string;
  /** An example's name, or the provocation ("invalid params (filter.and)", "a method that does not exist", …). */
  name: string;
  call: "by-position" | "by-name" | "raw";
  outcome: "pass" | "fail" | "skip";
  /** What was seen, in words. */
  detail: string;
  ms: number;
}

export interface ConformanceReport {
  title: string;
  url: string;
  cases: ConformanceCase[];
  passed: number;
  failed: number;
  skipped: number;
}

/**
 * Checks the live server at `url` against a valid OpenRPC document (local references only): what
 * `neutral-openrpc test` runs. Sends every example as written.
 */
export function runConformance(document: object, options: { url: string; headers?: Record<string, string>; timeoutMs?: number }): Promise<ConformanceReport>;
/** The report as a table, TAP 14 or JUnit XML. */
export function formatReport(report: ConformanceReport, reporter?: "table" | "tap" | "junit"): Promise<string>;
