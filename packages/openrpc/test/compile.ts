// Test support: type-checks TypeScript source held in memory with the compiler API (no files
// written, nothing emitted). The emitter tests (src/lib/typescript/*.test.ts) put the declarations of
// all their cases in one program and check that they compile, and that values meant to fit a type do
// while values meant not to fit it do not.
import path from "node:path";
import ts from "typescript";

/** The options a generated `types.ts` is checked with (the repository's strict settings). */
export const compilerOptions: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  noUncheckedIndexedAccess: true,
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  lib: ["lib.es2022.d.ts"],
  types: [],
  skipLibCheck: true,
};

export interface Diagnostic {
  file: string;
  /** 1-based. */
  line: number;
  code: number;
  message: string;
}

/** `file:line TScode message`, one line, for readable test failures. */
export const formatDiagnostic = (d: Diagnostic): string => `${d.file}:${d.line} TS${d.code} ${d.message}`;

// The default library's source files, parsed once per test worker.
const libFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * Type-checks `files` (name → source; a name like `case1.ts`) as one program and returns every
 * diagnostic (syntax, semantics, options). Modules import each other by relative name (`./case1.js`).
 */
export function typeCheck(files: Record<string, string>, options: ts.CompilerOptions = compilerOptions): Diagnostic[] {
  const root = "/virtual/";
  const sources = new Map(Object.entries(files).map(([name, text]) => [root + name, text]));
  const libDir = path.dirname(ts.getDefaultLibFilePath(options));
  const host: ts.CompilerHost = {
    fileExists: (name) => sources.has(name) || ts.sys.fileExists(name),
    readFile: (name) => sources.get(name) ?? ts.sys.readFile(name),
    getSourceFile(name, languageVersion) {
      const text = sources.get(name);
      if (text !== undefined) return ts.createSourceFile(name, text, languageVersion, true);
      if (!libFiles.has(name)) {
        const lib = ts.sys.readFile(name);
        libFiles.set(name, lib === undefined ? undefined : ts.createSourceFile(name, lib, languageVersion, false));
      }
      return libFiles.get(name);
    },
    getDefaultLibFileName: (opts) => ts.getDefaultLibFilePath(opts),
    getDefaultLibLocation: () => libDir,
    writeFile: () => {},
    getCurrentDirectory: () => root,
    getDirectories: () => [],
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => "\n",
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    return { file: d.file ? d.file.fileName.replace(root, "") : "", line, code: d.code, message: ts.flattenDiagnosticMessageText(d.messageText, " ") };
  });
}

/**
 * One module to type-check, built from labelled parts: `declare` parts must compile, `ok` parts
 * (statements) must compile, `bad` parts must each produce at least one error. Build it with
 * `add`, then check many modules at once with `checkModules`.
 */
export class TestModule {
  private readonly lines: string[] = [];
  readonly parts: { kind: "declare" | "ok" | "bad"; label: string; text: string; first: number; last: number }[] = [];

  constructor(readonly name: string) {}

  add(kind: "declare" | "ok" | "bad", label: string, text: string): this {
    const body = text.replace(/\n+$/, "").split("\n");
    const first = this.lines.length + 1;
    this.lines.push(...body);
    this.parts.push({ kind, label, text, first, last: this.lines.length });
    return this;
  }

  get source(): string {
    return `${this.lines.join("\n")}\nexport {};\n`;
  }
}

export interface CheckResult {
  /** Errors in `declare` and `ok` parts (and anywhere else), formatted; expected: none. */
  errors: string[];
  /** The `bad` parts that compiled although they must not, as `module: label: text`; expected: none. */
  accepted: string[];
}

/** Type-checks the modules as one program (one compile for a whole test file). */
export function checkModules(modules: TestModule[]): CheckResult {
  const diagnostics = typeCheck(Object.fromEntries(modules.map((m) => [m.name, m.source])));
  const errors: string[] = [];
  const rejected = new Set<string>();
  for (const d of diagnostics) {
    const module = modules.find((m) => m.name === d.file);
    const part = module?.parts.find((p) => d.line >= p.first && d.line <= p.last);
    if (module && part && part.kind === "bad") rejected.add(`${module.name}#${module.parts.indexOf(part)}`);
    else errors.push(`${formatDiagnostic(d)}${part ? ` (${part.kind}: ${part.label})` : ""}`);
  }
  const accepted = modules.flatMap((m) =>
    m.parts.flatMap((p, i) => (p.kind === "bad" && !rejected.has(`${m.name}#${i}`) ? [`${m.name}: ${p.label}: ${p.text}`] : [])),
  );
  return { errors, accepted };
}
