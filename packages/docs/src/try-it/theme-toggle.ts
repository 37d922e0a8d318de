// The theme toggle: the system's colour scheme, light or dark, kept across visits (theme.ts applies
// it before the page paints).
import { THEME_KEY } from "../theme-key.js";
import { $ } from "./dom.js";

export function setupTheme(): void {
  const button = $<HTMLButtonElement>("#theme-toggle");
  if (!button) return;
  const order = ["auto", "light", "dark"] as const;
  const current = () => (document.documentElement.dataset.theme as "light" | "dark" | undefined) ?? "auto";
  const show = () => {
    button.textContent = `Theme: ${current()}`;
    button.title = "Switch between the system's colour scheme, light and dark";
  };
  button.addEventListener("click", () => {
    const next = order[(order.indexOf(current()) + 1) % order.length]!;
    if (next === "auto") delete document.documentElement.dataset.theme;
    else document.documentElement.dataset.theme = next;
    try {
      if (next === "auto") localStorage.removeItem(THEME_KEY);
      else localStorage.setItem(THEME_KEY, next);
    } catch {
      // not kept across visits then
    }
    show();
  });
  show();
  button.hidden = false;
}
