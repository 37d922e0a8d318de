// hash-wasm's keccak alone (11 KB): its main entry carries every algorithm's WebAssembly, ~8 MB more
// of each process's memory (PSS after 200,000 hashes: 17 against 25 MB). That file ships without
// types of its own; these are its main entry's.
declare module "hash-wasm/dist/keccak.umd.min.js" {
  import type { IHasher } from "hash-wasm";
  const keccakModule: { createKeccak(bits?: 224 | 256 | 384 | 512): Promise<IHasher> };
  export default keccakModule;
}
