/**
 * The app bar's height in px (app-shell.css `.app-header`): a table's sticky header stops below it
 * (`sticky={{ offsetHeader: APP_HEADER_HEIGHT }}`) instead of covering it and the account menu.
 */
export const APP_HEADER_HEIGHT = 64;
