import { ErrorCode, RpcError } from "./errors.js";

/**
 * What is left of one HTTP request's answer budget (the dispatcher's `maxResponseBytes`), shared by
 * the entries of a batch. A handler whose answer can be large (a page of messages) sizes it by
 * `remaining` and calls `spend` as soon as it knows its size, so that the entries running beside it
 * see what is left; the dispatcher counts every other answer once it is done.
 */
export interface ResponseBudget {
  /** The whole budget, bytes. */
  readonly limit: number;
  /** Bytes still available; zero or less once spent. */
  readonly remaining: number;
  /** Counts `bytes` of this entry's answer against the budget. */
  spend(bytes: number): void;
}

/** The error of an entry that found its request's answer budget spent: it was not run. */
export const budgetSpentError = (limit: number): RpcError =>
  new RpcError(ErrorCode.TooLarge, `Too large: this request's answers reached the response budget of ${limit} bytes; ask for the rest in another request`, {
    reason: "response budget",
    limit,
  });

/** A request's budget, and a view of it per entry that remembers whether the entry counted itself. */
export function createResponseBudget(limit: number): { entry(): ResponseBudget & { readonly spent: number } } {
  let total = 0;
  return {
    entry() {
      let spent = 0;
      return {
        limit,
        get remaining() {
          return limit - total;
        },
        get spent() {
          return spent;
        },
        spend(bytes: number) {
          spent += bytes;
          total += bytes;
        },
      };
    },
  };
}
