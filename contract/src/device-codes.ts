/**
 * The characters a device's serial number and counter code may have (docs/master-data.md, "A
 * device's serial"): ASCII letters and digits, and `-`, `.`, `_`, `/` inside. No space, no line
 * break or other control character, no `;`, `=`, `#` or quote: a serial is written into files in
 * other programs' formats (wmbusmeters' `key=value` lines, CSV), so nothing in it may end a line or
 * a field. The API, the register import and the device forms check it.
 */
export const DEVICE_CODE_MAX_LENGTH = 64;
export const DEVICE_CODE_PATTERN = '^[0-9A-Za-z]([0-9A-Za-z._/-]*[0-9A-Za-z])?$';

const DEVICE_CODE_RE = new RegExp(DEVICE_CODE_PATTERN);

/** True when `code` is a serial number (or counter code) the product accepts. */
export const isDeviceCode = (code: string): boolean =>
  code.length <= DEVICE_CODE_MAX_LENGTH && DEVICE_CODE_RE.test(code);

/**
 * A wM-Bus meter id as a telegram's address field carries it and wmbusmeters matches it: 8 hex
 * digits (BCD digits for most meters). Only a device whose serial is one gets a meter file in a
 * collector's configuration (docs/collectors.md, "Meters left out").
 */
export const WMBUS_METER_ID_PATTERN = '^[0-9A-Fa-f]{8}$';
const WMBUS_METER_ID_RE = new RegExp(WMBUS_METER_ID_PATTERN);

/** True when a serial is a wM-Bus meter id. */
export const isWmbusMeterId = (code: string): boolean => WMBUS_METER_ID_RE.test(code);
