import { textMemo } from "../theory/memo.js";

const PUNCTUATION: Record<string, string> = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-" };

/**
 * Text for Scala and AnaMark files, which are read as ASCII: letters lose their diacritics
 * (ā → a, ḥ → h), ʿayn and hamza signs are dropped, typographic punctuation becomes its ASCII
 * form, and anything else outside printable ASCII (Arabic script) is left out. Export headers
 * repeat the same lines (a tuning system and its sources, an entity's title) in every file of a
 * tuning system, so lines up to 400 characters are remembered (5,000 at most), those not already
 * ASCII.
 */
export const ascii = (text: string): string => (PLAIN.test(text) ? text : converted(text));

/** Printable ASCII with single spaces between words (file names, URLs, most lines): already its own ASCII form, so not remembered. */
const PLAIN = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;

const converted: (text: string) => string = textMemo(
  (text) =>
    text
      .normalize("NFD")
      .replace(/\p{M}/gu, "")
      .replace(/[\u02bb\u02bc\u02be\u02bf]/g, "")
      .replace(/[\u2018\u2019\u201c\u201d\u2013\u2014]/g, (c) => PUNCTUATION[c])
      .replace(/[^\x20-\x7e]/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  5_000,
  400,
);

/** Whether every character of `text` is a printable ASCII character or a line feed. */
export const isAscii = (text: string): boolean => /^[\x20-\x7e\n]*$/.test(text);
