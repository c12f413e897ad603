/**
 * Node's default collation (en-US, ICU's root order), by which the reference sorts names and
 * idNames: `_` < `-` < `(` < `/` < digits < letters, and `ʿ` after every letter.
 */

/** Made on first use: making an ICU collator takes milliseconds a fresh worker's import should not spend. */
let collator: Intl.Collator | undefined;

/** Compares two names in the reference's collation order. */
export function compareNames(a: string, b: string): number {
  collator ??= new Intl.Collator("en-US");
  return collator.compare(a, b);
}
