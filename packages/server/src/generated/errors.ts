// generated — do not edit. Source: openrpc.json via neutral-openrpc (regenerate instead).
//
// The application errors of neutralService (components.errors), by name.

export const errors = {
  /** Invalid params */
  InvalidParams: { code: -32602, message: "Invalid params" },
  /** Unauthorized */
  Unauthorized: { code: -32001, message: "Unauthorized" },
  /** Forbidden */
  Forbidden: { code: -32002, message: "Forbidden" },
  /** Invalid message signature */
  InvalidSignature: { code: -32003, message: "Invalid message signature" },
  /** Timestamp outside the accepted window */
  TimestampOutOfWindow: { code: -32004, message: "Timestamp outside the accepted window" },
  /** Too large */
  TooLarge: { code: -32005, message: "Too large" },
  /** Rate limited */
  RateLimited: { code: -32029, message: "Rate limited" },
} as const;

export type ErrorName = keyof typeof errors;
