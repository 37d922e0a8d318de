/** Where the theme toggle keeps the reader's choice ("light" or "dark"; absent: follow the system). */
export const THEME_KEY = "neutral-docs-theme";
