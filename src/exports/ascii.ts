import { textMemo } from "../theory/memo.js";

const PUNCTUATION: Record<string, string> = { "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "-" };

/**
 * The conversion of each character: letters lose their diacritics (ā → a, ḥ → h), ʿayn and hamza
 * signs are dropped, typographic punctuation becomes its ASCII form, and anything else outside
 * printable ASCII (Arabic script, line breaks) becomes a space. Every step reads one character at
 * a time (canonical decomposition only reorders the marks it then drops), so a text's conversion
 * is its characters' conversions one after another.
 */
const characterwise = (text: string): string =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .replace(/[\u02bb\u02bc\u02be\u02bf]/g, "")
    .replace(/[\u2018\u2019\u201c\u201d\u2013\u2014]/g, (c) => PUNCTUATION[c])
    .replace(/[^\x20-\x7e]/g, " ");

/**
 * Text for Scala and AnaMark files, which are read as ASCII, by definition: each character
 * converted (characterwise), runs of spaces made one, and the ends trimmed. `ascii` gives the same
 * text with each character outside printable ASCII converted once; test/exports.test.ts holds the
 * two to each other.
 */
export const asciiByDefinition = (text: string): string => characterwise(text).replace(/\s+/g, " ").trim();

/**
 * The conversion of one character outside printable ASCII (a code point: a surrogate pair is one),
 * remembered: the archive's texts use a few hundred such characters, a client's text is bounded by
 * the memo's limit.
 */
const characterOf = textMemo(characterwise, 4096, 2);

/** Printable ASCII with single spaces between words (file names, URLs, most lines): already its own ASCII form. */
const PLAIN = /^(?:[\x21-\x7e]+(?: [\x21-\x7e]+)*)?$/;

/**
 * Export headers repeat the same lines (a tuning system and its sources) in every file of a
 * tuning system, so lines up to 400 characters are remembered (5,000 at most), those not already
 * ASCII. Tens of thousands differ (a title names its maqām and tonic), so the memo is often
 * emptied: a line is converted by its characters outside printable ASCII alone, each looked up.
 */
const converted = textMemo(
  (text) =>
    text
      .replace(/[^\x20-\x7e]/gu, characterOf)
      .replace(/ {2,}/g, " ")
      .trim(),
  5_000,
  400,
);

/** Text for Scala and AnaMark files: asciiByDefinition, read faster. */
export const ascii = (text: string): string => (PLAIN.test(text) ? text : converted(text));

/** Whether every character of `text` is a printable ASCII character or a line feed. */
export const isAscii = (text: string): boolean => /^[\x20-\x7e\n]*$/.test(text);
