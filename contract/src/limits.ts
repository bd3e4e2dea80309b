/** Limits shared by the server's schemas and the web client's form rules (docs/domain.md §10). */
export const PASSWORD_MIN_LENGTH = 6;
export const PASSWORD_MAX_LENGTH = 200;
export const NAME_MAX_LENGTH = 100;
export const USERNAME_MAX_LENGTH = 100;
/** An account (client) code's longest form; the occupant form says so rather than cutting what is typed. */
export const CLIENT_CODE_MAX_LENGTH = 64;
export const PAGE_SIZES = [5, 10, 20, 50, 100, 500] as const;
export const MAX_PAGE_SIZE = 500;
export const READINGS_PAGE_SIZE = 500;
export const USERS_PAGE_SIZE = 10;
export const DEVICES_PAGE_SIZE = 10;
export const LOCATIONS_PAGE_SIZE = 5;
export const TYPEAHEAD_MIN_CHARS = 2;
export const TYPEAHEAD_MIN_CHARS_BUILDING = 1;
export const TYPEAHEAD_DELAY_MS = 500;
export const TYPEAHEAD_LIMIT = 10;
/** A reading older than this many days before the end of the range flags the row. */
export const STALE_AFTER_DAYS = 4;
/** Decimals shown for readings and differences. */
export const READING_DECIMALS = 3;
/** Longest period GetDevicesData accepts, in days. */
export const MAX_RANGE_DAYS = 3700;
export const LANGUAGES = ['lt', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'lt';
