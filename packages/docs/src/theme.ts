// Loaded in <head> before the page paints: applies the theme chosen with the toggle (if any), so a
// saved choice does not flash. Without a saved choice the stylesheet follows prefers-color-scheme.
import { THEME_KEY } from "./theme-key.js";

try {
  const saved = localStorage.getItem(THEME_KEY);
  if (saved === "light" || saved === "dark") document.documentElement.dataset.theme = saved;
} catch {
  // Storage may be unavailable (privacy settings): the system setting applies.
}
