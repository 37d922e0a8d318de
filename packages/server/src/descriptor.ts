/** The shape of a generated method descriptor (see a stub's generated/methods.ts). */
export interface ParamDescriptor {
  readonly name: string;
  readonly required: boolean;
  readonly default?: unknown;
  /** The param's JSON Schema, as written: `$ref`s (`#/components/schemas/…`) point into the service's document. */
  readonly schema: object;
}

export interface MethodDescriptor {
  readonly paramStructure: "by-position" | "by-name" | "either";
  readonly requiresAuth: boolean;
  /** The result travels as an array of exactly one payload. */
  readonly wrapResult: boolean;
  /** Answered as an event stream (`x-subscription`): the handler returns an async iterable of notifications. */
  readonly stream?: boolean;
  /** The method has no `result` (OpenRPC 1.3): clients send it as a notification; called with an id, it answers `null`. */
  readonly notification?: boolean;
  readonly params: readonly ParamDescriptor[];
}

/**
 * A param check compiled ahead of time (Ajv's standalone code, which a generated stub carries):
 * true for a valid value; on a failure, its first error in `errors`.
 */
export type PrecompiledValidator = ((value: unknown) => boolean) & { errors?: unknown };

/** What a generated stub exports as `service`: its method descriptors and the OpenRPC document as written. */
export interface ServiceDefinition {
  readonly methods: Readonly<Record<string, MethodDescriptor>>;
  /** The OpenRPC document as written ($refs kept): served by rpc.discover, and where `$ref`s in param schemas resolve. */
  readonly document: object;
  /**
   * Each method's param checks, in param order, compiled from the document when the stub was
   * generated: the runtime uses them instead of compiling the param schemas at start. Absent (a
   * hand-written service, an older stub): compiled when the first dispatcher is made.
   */
  readonly validators?: Readonly<Record<string, readonly PrecompiledValidator[]>>;
}

/**
 * The handlers a dispatcher needs for `S`: a function for every method of `S.methods`. The precise
 * signatures are the generated `Handlers<Ctx>` type, which annotates the handlers object. For a
 * service typed only as `ServiceDefinition` (its method names unknown), any object: the dispatcher
 * checks at construction that every method has a handler.
 */
export type ServiceHandlers<S extends ServiceDefinition> = string extends keyof S["methods"]
  ? object
  : { readonly [K in keyof S["methods"]]: (...args: never[]) => unknown };
