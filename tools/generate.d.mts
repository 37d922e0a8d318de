export const configPath: string;

/** The generated directories, relative to the repository root. */
export function generatedDirs(): Promise<string[]>;

export interface GenerateOptions {
  /** The OpenRPC document to generate from. Default: the repository's openrpc.json. */
  specPath?: string;
  /** Stands in for the repository root: output lands in `outRoot/packages/*`. Default: the repository. */
  outRoot?: string;
}

/** Runs every target of tools/neutral-openrpc.json through @neutral/openrpc. */
export function generate(options?: GenerateOptions): Promise<void>;

/** Regenerates into a temp dir; returns the committed generated files that differ (empty when current). */
export function findStaleFiles(): Promise<string[]>;
