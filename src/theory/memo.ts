/**
 * Bounded memos for work shared by many answers. Keys include free parameters such as
 * `centsTolerance`, so an unbounded map would grow with every distinct value a client sends;
 * least recently used entries are evicted past `limit` entries, or past `byteLimit` bytes where
 * entries differ widely in size (the caller tells an entry's bytes with `bytesOf`).
 */
export type Memo<V> = (key: string, compute: () => V, bytesOf?: (value: V) => number) => V;

export function boundedMemo<V>(limit: number, byteLimit = Infinity): Memo<V> {
  const entries = new Map<string, { value: V; bytes: number }>();
  let bytes = 0;
  /** The most recently used key: answers ask for the same entry many times in a row, which then stays where it is. */
  let newest: string | undefined;
  return (key, compute, bytesOf) => {
    const hit = entries.get(key);
    if (hit !== undefined) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      if (key !== newest) {
        entries.delete(key);
        entries.set(key, hit);
        newest = key;
      }
      return hit.value;
    }
    const value = compute();
    const entry = { value, bytes: bytesOf?.(value) ?? 0 };
    entries.set(key, entry);
    newest = key;
    bytes += entry.bytes;
    // Oldest first; the new entry (last) stays even when it alone is over the bytes.
    for (const [k, old] of entries) {
      if (k === key || (entries.size <= limit && bytes <= byteLimit)) break;
      entries.delete(k);
      bytes -= old.bytes;
    }
    return value;
  };
}

/**
 * A value derived from an object that a memo holds, kept exactly as long as that object lives
 * (a WeakMap keyed by it); the module that derives the value declares its own.
 */
export function attachedCache<K extends object, V>(): (key: K, compute: () => V) => V {
  const values = new WeakMap<K, V>();
  return (key, compute) => {
    let value = values.get(key);
    if (value === undefined) {
      value = compute();
      values.set(key, value);
    }
    return value;
  };
}

/**
 * The last `limit` values derived from objects, by the identity of the object: for work that a
 * run of answers asks for one after another (the nine export files of one transposition), where a
 * map of every object a catalog holds would keep far more than the run needs. `fits` tells a
 * value computed for another argument beside the key (then it is computed again).
 */
export function recentMemo<K extends object, V>(limit: number): (key: K, compute: () => V, fits?: (value: V) => boolean) => V {
  const recent = new Map<K, V>();
  return (key, compute, fits) => {
    const hit = recent.get(key);
    if (hit !== undefined && (fits === undefined || fits(hit))) return hit;
    const value = compute();
    recent.delete(key);
    const oldest = recent.keys().next();
    if (recent.size >= limit && !oldest.done) recent.delete(oldest.value);
    recent.set(key, value);
    return value;
  };
}

/**
 * A pure function of short text remembered for the text it is called with: for conversions that
 * answers repeat on the same few thousand names. Texts longer than `longest` characters are not
 * kept and the whole map is emptied when it reaches `limit` entries, so a long-lived server's
 * memory stays bounded whatever text clients send, at the cost of one map look-up per call.
 */
export function textMemo(convert: (text: string) => string, limit: number, longest: number): (text: string) => string {
  const known = new Map<string, string>();
  return (text) => {
    let converted = known.get(text);
    if (converted === undefined) {
      converted = convert(text);
      if (text.length > longest) return converted;
      if (known.size >= limit) known.clear();
      known.set(text, converted);
    }
    return converted;
  };
}
