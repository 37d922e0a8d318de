// The docs site's script (bundled by build.mjs into dist/try-it.js): the theme toggle, search over
// methods, notifications, schemas and sections, and "Try it": every method's form (generated from the
// spec) builds the JSON-RPC request, signs in with a throwaway key or a pasted token, POSTs it to the
// relay that serves the page and shows the answer; a method answered as an event stream
// (`x-subscription`) shows each event as it arrives until the node ends the stream or Stop aborts it.
// No network but that one origin; no inline scripts. Its parts are in try-it/.
import { setupForms } from "./try-it/forms.js";
import { setupSearch } from "./try-it/search.js";
import { setupSignIn } from "./try-it/session.js";
import { setupTheme } from "./try-it/theme-toggle.js";

function start(): void {
  setupTheme();
  setupSearch();
  setupSignIn();
  setupForms();
  document.documentElement.classList.add("js");
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
