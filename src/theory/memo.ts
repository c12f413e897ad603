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

/** Where a catalog keeps its memos, one per slot name. */
export interface MemoStore {
  memos: Map<string, Memo<unknown>>;
}

/**
 * Declares a memo beside the code that uses it while the catalog owns its entries: each catalog
 * gets its own memo for the slot, made on first use, so nothing is shared between catalogs and
 * nothing lives in a module.
 */
export function memoSlot<V>(name: string, limit: number): (store: MemoStore) => Memo<V> {
  return (store) => {
    let memo = store.memos.get(name);
    if (!memo) {
      memo = boundedMemo<unknown>(limit);
      store.memos.set(name, memo);
    }
    return memo as Memo<V>;
  };
}
