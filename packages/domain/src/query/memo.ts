/** A value computed once per (owner, key) and kept as long as the owner (a Dataset, a postings) lives. */
export const memoPer = <O extends object, K, V>() => {
  const store = new WeakMap<O, Map<K, V>>()
  return (owner: O, key: K, compute: () => V): V => {
    let perOwner = store.get(owner)
    if (perOwner === undefined) {
      perOwner = new Map()
      store.set(owner, perOwner)
    }
    let value = perOwner.get(key)
    if (value === undefined) {
      value = compute()
      perOwner.set(key, value)
    }
    return value
  }
}
