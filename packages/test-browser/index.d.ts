import type { Browser, LaunchOptions } from "playwright-core";

/**
 * Launches a headless Chromium: `NEUTRAL_CHROMIUM=/path/to/chromium` if set, otherwise the build
 * @sparticuz/chromium ships, extracted into a temp folder that is removed when the browser closes.
 */
export function launchChromium(options?: LaunchOptions): Promise<Browser>;
