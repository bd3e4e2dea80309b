/**
 * The server sends times in the provider's zone with its offset (2026-03-29T04:00:00+03:00).
 * They are shown as the provider's wall-clock time whatever zone the browser is in.
 */
export const formatDateTime = (value: string | null | undefined): string =>
  value ? `${value.slice(0, 10)} ${value.slice(11, 16)}` : '';
