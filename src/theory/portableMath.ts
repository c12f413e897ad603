/**
 * Base-2 logarithm and power, correctly rounded, computed with IEEE-754 additions,
 * multiplications and divisions only. Those are exact-rounded in every JavaScript engine, while
 * `Math.log2` and `Math.pow` are not specified to the bit and differ between engines and engine
 * versions (Node 20 and Deno 2 disagree in the last digit of some). Answers built on these are
 * the same bytes in Node, workerd, Deno, Bun and the browser.
 *
 * The work is done in double-double arithmetic (a value is an unevaluated sum hi + lo, about
 * 106 bits), so the one final rounding to a double is correct but for inputs within 2^-100 of a
 * rounding boundary.
 */
type DD = [hi: number, lo: number];

const twoSum = (a: number, b: number): DD => {
  const s = a + b;
  const bb = s - a;
  return [s, a - (s - bb) + (b - bb)];
};
const quickTwoSum = (a: number, b: number): DD => {
  const s = a + b;
  return [s, b - (s - a)];
};
const SPLITTER = 134217729; // 2^27 + 1
const split = (a: number): DD => {
  const c = SPLITTER * a;
  const hi = c - (c - a);
  return [hi, a - hi];
};
const twoProduct = (a: number, b: number): DD => {
  const p = a * b;
  const [ah, al] = split(a);
  const [bh, bl] = split(b);
  return [p, ah * bh - p + ah * bl + al * bh + al * bl];
};
const add = ([ah, al]: DD, [bh, bl]: DD): DD => {
  const [s, e] = twoSum(ah, bh);
  const [t, f] = twoSum(al, bl);
  const [s2, e2] = quickTwoSum(s, e + t);
  return quickTwoSum(s2, e2 + f);
};
const mul = ([ah, al]: DD, [bh, bl]: DD): DD => {
  const [p, e] = twoProduct(ah, bh);
  return quickTwoSum(p, e + (ah * bl + al * bh));
};
const div = (a: DD, b: DD): DD => {
  const q1 = a[0] / b[0];
  const r = add(a, mul(b, [-q1, 0]));
  const q2 = r[0] / b[0];
  const r2 = add(r, mul(b, [-q2, 0]));
  const q3 = r2[0] / b[0];
  return add(quickTwoSum(q1, q2), [q3, 0]);
};
const scale = ([hi, lo]: DD, k: number): DD => [hi * k, lo * k];

/** 1/k to double-double precision, for the series terms (made on first use). */
let reciprocals: DD[] | undefined;
const reciprocal = (k: number): DD => {
  reciprocals ??= Array.from({ length: 48 }, (_, i): DD => (i === 0 ? [0, 0] : div([1, 0], [i, 0])));
  return reciprocals[k];
};

const LN2: DD = [0.6931471805599453, 2.3190468138462996e-17];
const LOG2E: DD = [1.4426950408889634, 2.0355273740931033e-17];
const SQRT2 = 1.4142135623730951;

const bits = new DataView(new ArrayBuffer(8));

/** 2^n for an integer n in the normal range, exactly (built from its bits). */
function powerOfTwo(n: number): number {
  bits.setUint32(0, (n + 1023) << 20);
  bits.setUint32(4, 0);
  return bits.getFloat64(0);
}

/** log2(x), correctly rounded, for a positive normal x; −Infinity for 0, NaN below 0. */
export function log2(x: number): number {
  if (!(x > 0)) return x === 0 ? -Infinity : NaN;
  if (x === Infinity) return Infinity;
  bits.setFloat64(0, x);
  const high = bits.getUint32(0);
  let exponent = ((high >>> 20) & 0x7ff) - 1023;
  // The mantissa in [1, 2), then moved to [√2/2, √2) so that the series below converges fast.
  bits.setUint32(0, (high & 0x000fffff) | 0x3ff00000);
  let m = bits.getFloat64(0);
  if (m > SQRT2) {
    m /= 2;
    exponent += 1;
  }
  if (m === 1) return exponent;
  // ln m = 2·atanh(s) = 2(s + s³/3 + s⁵/5 + …), s = (m − 1)/(m + 1), |s| ≤ 0.172: 24 terms reach 2^-110.
  const s = div([m - 1, 0], twoSum(m, 1));
  const z = mul(s, s);
  let series: DD = [0, 0];
  for (let k = 47; k >= 3; k -= 2) series = mul(add(series, reciprocal(k)), z);
  const lnM = scale(mul(s, add([1, 0], series)), 2);
  const [hi, lo] = add([exponent, 0], mul(lnM, LOG2E));
  return hi + lo;
}

/** 2^y, correctly rounded, for a finite y (exact for integers in the normal range). */
export function exp2(y: number): number {
  if (Number.isNaN(y)) return NaN;
  if (y >= 1024) return Infinity;
  if (y < -1022) return 0;
  const n = Math.round(y);
  const f = y - n;
  if (f === 0) return powerOfTwo(n);
  // e^t with |t| ≤ ln2 / 2, by its Taylor series: 24 terms reach 2^-110.
  const t = mul(LN2, [f, 0]);
  let sum: DD = [1, 0];
  for (let k = 24; k >= 1; k--) sum = add([1, 0], mul(mul(sum, t), reciprocal(k)));
  const [hi, lo] = scale(sum, powerOfTwo(n));
  return hi + lo;
}
