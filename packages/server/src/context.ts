import type { ResponseBudget } from "./response-budget.js";

/** What the dispatcher hands every handler besides its params. Extend it with your own fields. */
export interface RequestContext<Auth = unknown> {
  /** Who made the request, as the `authenticate` hook established it; absent when no token was needed or given. */
  auth?: Auth;
  /** What is left of the request's answer budget; set by the dispatcher for every entry it runs. */
  responseBudget?: ResponseBudget;
}

/** The context of a method that needs a token: `auth` is always there. */
export type Authenticated<Ctx extends RequestContext> = Ctx & { auth: NonNullable<Ctx["auth"]> };
