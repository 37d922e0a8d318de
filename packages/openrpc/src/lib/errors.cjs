// @ts-check
// A mistake in the input (the document, a config file): reported as its message alone, no stack.
"use strict";

class DocumentError extends Error {
  /** @param {string} message names the place in the input */
  constructor(message) {
    super(message);
    /** @type {string} */
    this.name = "DocumentError";
  }
}

module.exports = { DocumentError };
