import { textMemo } from "./memo.js";

/**
 * The idName of a display name, used for every identifier and every diacritics-insensitive comparison:
 * NFD, drop combining marks, drop apostrophe/ʿayn/hamza, whitespace runs to `_`, lower case.
 * Hyphens, slashes, parentheses and digits survive; nothing is trimmed. Answers convert the same
 * few thousand names over and over, so the idNames of names up to 100 characters are remembered
 * (20,000 at most, a few megabytes).
 */
export const toIdName: (text: string) => string = textMemo(
  (text) =>
    text
      .normalize("NFD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/['\u02bf\u02be]/g, "")
      .replace(/\s+/g, "_")
      .toLowerCase(),
  20_000,
  100,
);

/** True when two names denote the same identifier. */
export const sameIdName = (a: string, b: string): boolean => toIdName(a) === toIdName(b);
