/**
 * The one writer of wmbusmeters' `key=value` files (docs/collectors.md, "The configuration's
 * format"): wmbusmeters reads a file line by line and a line `shell=…` is a command it runs, so no
 * value may end its line. A value with a line break (LF, CR, VT, FF, NEL, U+2028/U+2029), NUL or any
 * other control character is refused here whatever the caller checked before; comments are
 * written with those characters replaced.
 */

/** Characters that end a line for some reader, or that no configuration value needs: C0 and C1 controls, DEL, U+2028/U+2029. */
const isLineBreaking = (code: number): boolean =>
  code <= 0x1f || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
const hasLineBreaking = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) if (isLineBreaking(text.charCodeAt(i))) return true;
  return false;
};

/** A value that cannot go into a `key=value` line. */
export class UnsafeConfigValue extends Error {
  constructor(readonly key: string) {
    super(`The value of ${key}= would break wmbusmeters' line format`);
  }
}

/** True when `value` can be written after `key=` without ending or splitting the line. */
export const isSafeConfigValue = (value: string): boolean => !hasLineBreaking(value);

/** `key=value`, or UnsafeConfigValue when the value could end the line. */
export function configLine(key: string, value: string): string {
  if (!/^[a-z_]+$/.test(key)) throw new UnsafeConfigValue(key);
  if (!isSafeConfigValue(value)) throw new UnsafeConfigValue(key);
  return `${key}=${value}`;
}

/** `# text`, with every line-breaking character turned into a space. */
export const commentLine = (text: string): string =>
  `# ${Array.from(text, (c) => (isLineBreaking(c.charCodeAt(0)) ? ' ' : c)).join('')}`;

/** A whole file: its lines, each ending in a newline. */
export const configFile = (lines: readonly string[]): string => lines.map((l) => `${l}\n`).join('');
