// A mistake in the input (the document, a config file): reported as its message alone, no stack.
"use strict";

class DocumentError extends Error {
  constructor(message) {
    super(message);
    this.name = "DocumentError";
  }
}

module.exports = { DocumentError };
