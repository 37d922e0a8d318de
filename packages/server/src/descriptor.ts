/** The shape of a generated method descriptor (see generated/methods.ts). */
export interface ParamDescriptor {
  readonly name: string;
  readonly required: boolean;
  readonly default?: unknown;
  readonly schema: object;
}

export interface MethodDescriptor {
  readonly paramStructure: "by-position" | "by-name" | "either";
  readonly requiresAuth: boolean;
  /** The result travels as an array of exactly one payload. */
  readonly wrapResult: boolean;
  /** Answered as an event stream (`x-subscription`): the handler returns an async iterable of notifications. */
  readonly stream?: boolean;
  readonly params: readonly ParamDescriptor[];
}
