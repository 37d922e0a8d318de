/** Absolute path of the built site (`dist/`, made by `pnpm --filter @neutral/docs build`). */
export declare const docsDir: string;
/** Absolute path of the built site's `index.html`. */
export declare const indexHtmlPath: string;
