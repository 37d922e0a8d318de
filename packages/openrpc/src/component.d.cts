// Types of `@neutral/openrpc/component` (src/lib/component.cjs, typed there in JSDoc for this
// package's own checks), for projects that write a custom @open-rpc/generator component in TypeScript.

/** What templates render from during one run (the generator makes it). */
export interface GenerationContext {
  /** The document as written. */
  document: Record<string, unknown>;
  /** Its model (model.cjs). */
  model: { className: string; [key: string]: unknown };
  /** The do-not-edit line. */
  header: string;
  /** Each target's options (`out`, `runtime`, its own), by target name. */
  targets: Record<string, Record<string, unknown>>;
}

/** One file a component writes: the engine calls `template` and writes what it returns to `path`, inside the target's folder. */
export interface TemplateFile {
  path: string;
  template: () => string;
}

/** A custom @open-rpc/generator component module, as the engine (1.22) reads it. */
export interface ComponentModule {
  staticPath: (language: string, type?: string) => string | undefined;
  hooks: { templateFiles: Record<string, TemplateFile[]> };
}

/**
 * A lodash template (absolute, or relative to this package's templates folder) rendered to
 * `outPath` with the run's model, document, target options and helpers, and `extra`.
 */
export function templateFile(
  templatePath: string,
  outPath: string,
  extra?: Record<string, unknown> | ((context: GenerationContext) => Record<string, unknown>),
  targetName?: string,
): TemplateFile;

/** A hook that makes the directories (relative to the target's folder) the templates write into. */
export function ensureDirs(dirs: string[]): (destDir: string) => Promise<void>;

/** Sets what templates render from while `run` runs (the generator does this around each engine run). */
export function withContext<T>(context: GenerationContext, run: () => Promise<T>): Promise<T>;
