/**
 * Bounded memos for work shared by many answers. Keys include free parameters such as
 * `centsTolerance`, so an unbounded map would grow with every distinct value a client sends;
 * least recently used entries are evicted past `limit`.
 */
export type Memo<V> = (key: string, compute: () => V) => V;

export function boundedMemo<V>(limit: number): Memo<V> {
  const entries = new Map<string, V>();
  return (key, compute) => {
    const hit = entries.get(key);
    if (hit !== undefined) {
      // Re-insert to mark as most recently used (Map keeps insertion order).
      entries.delete(key);
      entries.set(key, hit);
      return hit;
    }
    const value = compute();
    entries.set(key, value);
    if (entries.size > limit) entries.delete(entries.keys().next().value as string);
    return value;
  };
}
