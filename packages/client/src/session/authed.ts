import { errors } from "../generated/errors.js";
import type { NeutralContext } from "../context.js";
import { RpcError } from "../rpc.js";

/** Runs `run`, and once more with a fresh token when the node refuses the current one (expired, clock skew). */
export async function authed<T>(context: Pick<NeutralContext, "renewToken">, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof RpcError) || error.code !== errors.Unauthorized.code) throw error;
    context.renewToken();
    return run();
  }
}
