// Sign-in for Try it: a throwaway key or a pasted bearer token, kept for as long as the page is
// open. The signing code (sign-in.js) is loaded the first time someone signs in.
import type { SignIn } from "../sign-in.js";
import { $, $$, el, served } from "./dom.js";

export interface Session {
  token: string;
  address: string;
  expiresAt?: number;
  how: "throwaway key" | "pasted token";
  message: string;
}

let session: Session | undefined;

/** Who Try it's requests are sent as, if anyone. */
export const currentSession = (): Session | undefined => session;

function showSession(): void {
  const state = $("#signin-state");
  if (state) {
    state.textContent = session
      ? `Signed in as ${session.address} (${session.how}${session.expiresAt ? `, expires ${new Date(session.expiresAt).toLocaleTimeString()}` : ""}).`
      : "Not signed in: methods that need a token are sent without one (and answer 401).";
  }
  const message = $("#signin-message");
  if (message) message.textContent = session ? session.message : "";
  const clear = $<HTMLButtonElement>("#signin-clear");
  if (clear) clear.disabled = !session;
  for (const line of $$("form.try[data-auth='true'] .try-auth")) {
    line.replaceChildren(
      session ? document.createTextNode(`Sends Authorization: Bearer … as ${session.address}. `) : document.createTextNode("Needs a bearer token, and you are not signed in. "),
      el("a", { href: "#try-it", text: session ? "Change" : "Sign in" }),
    );
  }
}

/** Where sign-in.js is: next to this script. */
const signInSrc = new URL("sign-in.js", (document.currentScript as HTMLScriptElement | null)?.src || location.href).href;
let signInCode: Promise<SignIn> | undefined;

/** The signing code (sign-in.js: secp256k1 and keccak-256), loaded the first time someone signs in. */
function loadSignIn(): Promise<SignIn> {
  signInCode ??= new Promise<SignIn>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = signInSrc;
    script.addEventListener("load", () => (window.neutralDocsSignIn ? resolve(window.neutralDocsSignIn) : reject(new Error("sign-in.js did not run"))));
    script.addEventListener("error", () => reject(new Error(`could not load ${signInSrc}`)));
    document.head.append(script);
  }).catch((error: unknown) => {
    signInCode = undefined; // try again on the next click
    throw error;
  });
  return signInCode;
}

/** Runs `action` with the signing code, saying so in the sign-in state if it cannot be loaded. */
async function withSignIn(action: (code: SignIn) => void): Promise<void> {
  let code: SignIn;
  try {
    code = await loadSignIn();
  } catch (error) {
    const state = $("#signin-state");
    if (state) state.textContent = `Cannot sign in: ${(error as Error).message}.`;
    return;
  }
  action(code);
}

function signInWithThrowawayKey({ bearerToken, newPrivateKey }: SignIn): void {
  // A fresh key each time, never stored: it lives as long as this page.
  const signed = bearerToken(newPrivateKey(), { domain: location.host, uri: location.origin });
  session = { token: signed.token, address: signed.address, expiresAt: signed.expiresAt, how: "throwaway key", message: signed.message };
  showSession();
}

function usePastedToken({ describeToken }: SignIn): void {
  const field = $<HTMLTextAreaElement>("#signin-token");
  const status = $("#signin-token-status");
  const token = field?.value.trim().replace(/^Bearer\s+/i, "") ?? "";
  const described = describeToken(token);
  if (!described) {
    if (status) status.textContent = "That is not a bearer token: expected base64url(SIWE message).0x-signature.";
    return;
  }
  if (status) status.textContent = described.domain === location.host ? "" : `Note: the token is for ${described.domain}, this page is ${location.host || "not served"}; the node may refuse it.`;
  session = { token, address: described.address, ...(described.expiresAt !== undefined && { expiresAt: described.expiresAt }), how: "pasted token", message: described.message };
  showSession();
}

export function setupSignIn(): void {
  const offline = $("#try-offline");
  if (offline) offline.hidden = served;
  const throwaway = $<HTMLButtonElement>("#signin-throwaway");
  const use = $<HTMLButtonElement>("#signin-use-token");
  const clear = $<HTMLButtonElement>("#signin-clear");
  if (throwaway) {
    throwaway.disabled = !served;
    throwaway.addEventListener("click", () => void withSignIn(signInWithThrowawayKey));
  }
  if (use) {
    use.disabled = !served;
    use.addEventListener("click", () => void withSignIn(usePastedToken));
  }
  clear?.addEventListener("click", () => {
    session = undefined;
    showSession();
  });
  const panel = $("#signin");
  if (panel) panel.hidden = false;
  showSession();
}
