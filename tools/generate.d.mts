export interface GenerateOptions {
  /** The OpenRPC document to generate from. Default: the repository's openrpc.json. */
  specPath?: string;
  /** Stands in for the repository root: output lands in `outRoot/packages/*`. Default: the repository. */
  outRoot?: string;
}

/** Runs @open-rpc/generator with every component of tools/generator.config.json. */
export function generate(options?: GenerateOptions): Promise<void>;

/** Regenerates into a temp dir; returns the committed generated files that differ (empty when current). */
export function findStaleFiles(): Promise<string[]>;
