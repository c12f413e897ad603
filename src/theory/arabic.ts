/**
 * Library-of-Congress-style transliteration → Arabic script (docs/algorithms.md §14.4).
 *
 * The reference computes every note, maqām, jins, family and transposition `*Ar` field on the fly
 * with this converter, so it is reproduced rule for rule, quirks included (Q17): Latin letters it
 * does not know stay Latin (`no jins` → `نo جنس`), and the `ah\b` / `at\b` keys are dead.
 * All regexes use JS semantics on purpose: `\s` is Unicode whitespace, `\w` and `\b` are ASCII.
 */
import { textMemo } from "./memo.js";

/** Step 2: whole-word-ish spellings replaced before the letter table sees them, in this order. */
const WORD_TABLE: readonly (readonly [string, string])[] = [
  ["girkah", "جركه"],
  ["bestenegār", "بِستِنِكار"],
  ["būselīk", "بوسِليك"],
  ["zīrgūleh", "زيركولِه"],
  ["nawā", "نوى"],
  ["maqām", "مقام"],
  ["jins", "جنس"],
  ["none", "دون تعريف"],
];

const SHADDA = "\u0651";

/**
 * Step 3: the letter table, longest key first (ties in declaration order), applied one key at a
 * time over the whole string. The reference also lists the keys `ah\b` and `at\b`; they are
 * literal strings containing a backslash, never present in a name, so they are left out here.
 */
const LETTER_TABLE: readonly (readonly [string, string])[] = [
  ["at al-", "ة ال"],
  ["kesh", "كِش"],
  ["thth", "ث" + SHADDA],
  ["khkh", "خ" + SHADDA],
  ["dhdh", "ذ" + SHADDA],
  ["shsh", "ش" + SHADDA],
  ["ghgh", "غ" + SHADDA],
  ["al-", "ال"],
  ["āʾ", "اء"],
  ["ʾā", "آ"],
  ["ʾa", "أ"],
  ["ʾi", "إ"],
  ["ʾu", "أ"],
  ["th", "ث"],
  ["kh", "خ"],
  ["dh", "ذ"],
  ["sh", "ش"],
  ["gh", "غ"],
  ["ch", "ج"],
  ["zh", "ژ"],
  ["ye", "ي"],
  ["se", "سي"],
  ["bb", "ب" + SHADDA],
  ["tt", "ت" + SHADDA],
  ["jj", "ج" + SHADDA],
  ["ḥḥ", "ح" + SHADDA],
  ["dd", "د" + SHADDA],
  ["rr", "ر" + SHADDA],
  ["zz", "ز" + SHADDA],
  ["ss", "س" + SHADDA],
  ["ṣṣ", "ص" + SHADDA],
  ["ḍḍ", "ض" + SHADDA],
  ["ṭṭ", "ط" + SHADDA],
  ["ẓẓ", "ظ" + SHADDA],
  ["ʿʿ", "ع" + SHADDA],
  ["ff", "ف" + SHADDA],
  ["qq", "ق" + SHADDA],
  ["kk", "ك" + SHADDA],
  ["ll", "ل" + SHADDA],
  ["mm", "م" + SHADDA],
  ["nn", "ن" + SHADDA],
  ["hh", "ه" + SHADDA],
  ["ww", "و" + SHADDA],
  ["yy", "ي" + SHADDA],
  ["ʾ", "ء"],
  ["ā", "ا"],
  ["ī", "ي"],
  ["ū", "و"],
  ["b", "ب"],
  ["t", "ت"],
  ["j", "ج"],
  ["ḥ", "ح"],
  ["d", "د"],
  ["r", "ر"],
  ["z", "ز"],
  ["s", "س"],
  ["ṣ", "ص"],
  ["ḍ", "ض"],
  ["ṭ", "ط"],
  ["ẓ", "ظ"],
  ["ʿ", "ع"],
  ["f", "ف"],
  ["q", "ق"],
  ["k", "ك"],
  ["l", "ل"],
  ["m", "م"],
  ["n", "ن"],
  ["h", "ه"],
  ["w", "و"],
  ["y", "ي"],
  ["p", "ب"],
  ["g", "ك"],
  ["e", ""],
];

/** The consonant class K of step 4 (ي and و included). */
const K = "بتثجحخدذرزسشصضطظعغفقكلمنهوير";
/** Short-vowel marks: fatha, kasra, damma. */
const FATHA = "\u064E";
const KASRA = "\u0650";
const DAMMA = "\u064F";
const MARKS = FATHA + KASRA + DAMMA;

/** Latin short vowel → hamza carrier used at the start of a word (4.1, 4.2). */
const INITIAL_CARRIER: Readonly<Record<string, string>> = { a: "أ", i: "إ", u: "أ" };
/** Latin short vowel → Arabic vowel mark (4.3). */
const VOWEL_MARK: Readonly<Record<string, string>> = { a: FATHA, i: KASRA, u: DAMMA };

// 4.1: word-initial (start of text or after whitespace) a/i/u before a consonant.
const RE_INITIAL_VOWEL = new RegExp(`(^|\\s)([aiu])(?=[${K}])`, "g");
// 4.2: the same directly after the article ال.
const RE_ARTICLE_VOWEL = new RegExp(`ال([aiu])(?=[${K}])`, "g");
// 4.3: a/i/u after a consonant, ي or shadda, unless an ASCII word character follows (JS `\w`).
const RE_SHORT_VOWEL = new RegExp(`([${K}ي${SHADDA}])([aiu])(?!\\w)`, "g");
// 4.4: a vowel mark opening a word and followed by a consonant becomes alif-hamza.
const RE_INITIAL_MARK_BEFORE_CONSONANT = new RegExp(`(^|\\s)[${MARKS}](?=[${K}پژچگ])`, "g");
// 4.5: any other vowel mark opening a word is dropped.
const RE_INITIAL_MARK = new RegExp(`(^|\\s)[${MARKS}]`, "g");
// 4.6 (sun/moon letters after `\bال`) needs an ASCII word character right before ال; it never
// fires on archive names and is not reproduced.
// 4.7: no vowel mark between ال+consonant and a following long vowel letter.
const RE_ARTICLE_LONG_VOWEL = new RegExp(`(ال[${K}])[${MARKS}]([اوي])`, "g");
const RE_WHITESPACE = /\s+/g;

/** Global literal replacement (no regex metacharacters involved). */
const replaceAllLiteral = (text: string, from: string, to: string): string => text.split(from).join(to);

/** Collapse whitespace runs to one space and trim, as the reference does after converting. */
const tidy = (text: string): string => text.replace(RE_WHITESPACE, " ").trim();

/** The core routine `tr` of §14.4 (steps 1-4). */
export function transliterate(text: string): string {
  let out = text.toLowerCase();
  for (const [from, to] of WORD_TABLE) out = replaceAllLiteral(out, from, to);
  for (const [from, to] of LETTER_TABLE) out = replaceAllLiteral(out, from, to);
  out = out
    .replace(RE_INITIAL_VOWEL, (_m, lead: string, v: string) => lead + INITIAL_CARRIER[v])
    .replace(RE_ARTICLE_VOWEL, (_m, v: string) => "ال" + INITIAL_CARRIER[v])
    .replace(RE_SHORT_VOWEL, (_m, c: string, v: string) => c + VOWEL_MARK[v])
    .replace(RE_INITIAL_MARK_BEFORE_CONSONANT, "$1أ")
    .replace(RE_INITIAL_MARK, "$1")
    .replace(RE_ARTICLE_LONG_VOWEL, "$1$2");
  return tidy(out);
}

/**
 * Note names: each `/`-separated alternative is converted on its own. Answers with Arabic names
 * convert the same few hundred names over and over, so those up to 100 characters are remembered
 * (5,000 at most), as are the entity names below.
 */
export const noteNameToArabic: (name: string) => string = textMemo(
  (name) =>
    name
      .split("/")
      .map((part) => transliterate(part.trim()))
      .join("/"),
  5_000,
  100,
);

/** Maqām, jins, family and transposition names: the whole string at once. */
export const entityNameToArabic: (name: string) => string = textMemo((name) => tidy(transliterate(name)), 5_000, 100);
