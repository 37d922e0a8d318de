/** A promise made on first use and kept; forgotten if it rejects, so the next use tries again. */
export interface Lazy<T> {
  get(make: () => Promise<T>): Promise<T>;
}

export function lazy<T>(): Lazy<T> {
  let value: Promise<T> | undefined;
  return {
    get: (make) =>
      (value ??= make().catch((error: unknown) => {
        value = undefined;
        throw error;
      })),
  };
}
