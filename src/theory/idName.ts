/**
 * The idName of a display name, used for every identifier and every diacritics-insensitive comparison:
 * NFD, drop combining marks, drop apostrophe/ʿayn/hamza, whitespace runs to `_`, lower case.
 * Hyphens, slashes, parentheses and digits survive; nothing is trimmed.
 */
export function toIdName(text: string): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/['\u02bf\u02be]/g, "")
    .replace(/\s+/g, "_")
    .toLowerCase();
}

/** True when two names denote the same identifier. */
export const sameIdName = (a: string, b: string): boolean => toIdName(a) === toIdName(b);
