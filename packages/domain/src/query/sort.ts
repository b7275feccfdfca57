/**
 * Ordering a selection and cutting one window of it (design 2.2):
 * - `naturel`: file order; `-naturel`: reverse file order.
 * - `nom`: folded name order, ties in file order (`byName`); `-nom`: reverse folded name order,
 *   ties still in file order (equal folded names keep file order in both directions).
 * - `annee`: birth year ascending, `-annee`: descending; ties in file order in both directions;
 *   rows without a birth year always last.
 *
 * Strategies, chosen by estimated cost (c = selection size, n = Dataset size, k = offset + limite):
 * - whole Dataset: read the permutation (`byName`) or the year buckets (`annee.rows`) directly: O(k);
 * - walk: follow the permutation / year buckets in order, testing membership (the selection's
 *   bitset, or one of its rows), until k rows are found: expected O(k·n/c), abandoned past a budget;
 * - small selection, by name: sort the rows' `nameRank`s (unique, so `byName[rank]` gives the row back);
 * - large selection, by name: a bitmap over name ranks, scanned 32 ranks per word: O(c + n/32);
 * - by year: the selection's rows counted per year, then the window placed (listed rows) or the
 *   window's years walked (a bitset, counted from its words without listing them): O(c), no sort.
 */
import { bitsWindow, wordsFor } from "../dataset/bits.ts"
import { dictionarySize } from "../dataset/columns.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { sameFoldedName } from "./nameTokens.ts"
import { BIT_ROW, RANDOM_BIT } from "./costs.ts"
import { countBitRows } from "./counting.ts"
import { listingCost, membership, membershipCost, type RowTest, type Selection, selectionRows } from "./selection.ts"
import type { Tri } from "../vocabulary.ts"


/** Which strategy produced a window and how many rows it touched: for tests and metrics. */
export interface PageStats {
  strategy: string
  visited: number
}

/**
 * A strategy to impose (tests): `walk` (with its budget fallback), `sort` / `bitmap` (name order),
 * `count` (year order). Unsupported combinations: the cost-based choice (names), `count` (years).
 */
export type Strategy = "walk" | "sort" | "bitmap" | "count"

const noStats = (): PageStats => ({ strategy: "", visited: 0 })

/**
 * Cost units, those of `costs.ts` (a word of a bitset pass is 1): a walk step reads a permutation
 * and tests a row at random; a sort compares ranks; a rank bitmap sets a bit at random.
 */
const WALK_STEP = 6
const SORT_STEP = 2.5
/**
 * Reading a selected row's name rank, which sorting and the rank bitmap do for every row: a random
 * read of a column of 4 bytes a row (17.8 MB at 4.45 M), a cache miss each time. Measured at
 * 4.45 M: 100–130 ns a row for either, where a walk step (the permutation read in order, a bit of
 * the selection tested) is 7 ns.
 */
const RANK_READ = 14 * WALK_STEP
/**
 * Steps a walk may take before it gives up for the other strategy: twice those expected, and at
 * least what the other strategy would cost (rows are not spread evenly in the order: names
 * holding a D-word are rare among those beginning with Z; walking on costs at most twice the
 * better choice made in hindsight).
 */
const walkBudget = (expected: number, otherCost: number): number => Math.max(2 * expected + 1024, otherCost / WALK_STEP)

/**
 * A year walk projects its cost from the members met so far, every 4096 misses, and gives up as
 * soon as the projection passes its budget: members are not spread evenly over the years
 * (broodmares are old, foals young), and a walk through the wrong end would spend its whole
 * budget before counting, which costs a pass over the selection's words. Not in name order: a
 * name prefix's rows sit together in it (J-names after the A to I ones), a projection made early
 * would give up the walk that reaches them, and what it would fall back on reads every row's
 * name rank at random (`RANK_READ`).
 */
const PROJECT_EVERY = 4095

/**
 * Rows of the name order read, spread evenly over it, to estimate where a walk meets its members
 * (`sampledWalkSteps`): about 35 µs at 4.45 M with cold caches.
 */
export const WALK_SAMPLES = 4096

/** Answered by a cursor: no more rows. */
const END = -1
/** Answered by a walking cursor: its budget is spent, use another strategy. */
const GAVE_UP = -2

type Cursor = () => number

// ---------------------------------------------------------------------------------------------
// Windows from cursors.

/**
 * Rows `[offset, offset + limite)` of the sequence a cursor yields; undefined when the cursor gave
 * up. With `fixTies`, the cursor yields rows in reverse name order with ties in reverse file order
 * (the reverse of `byName`); runs of equal folded names overlapping the window are flipped back
 * to file order.
 */
const windowOf = (
  data: DatasetData,
  next: Cursor,
  offset: number,
  limite: number,
  fixTies: boolean
): Uint32Array | undefined => {
  const need = offset + limite
  const seq: Array<number> = []
  let r = 0
  while (seq.length < need) {
    r = next()
    if (r < 0) break
    seq.push(r)
  }
  if (r === GAVE_UP) return undefined
  if (seq.length <= offset) return new Uint32Array(0)
  if (fixTies) {
    if (seq.length === need) {
      const last = seq[seq.length - 1]
      for (;;) {
        r = next()
        if (r === GAVE_UP) return undefined
        if (r < 0 || !sameFoldedName(data, last, r)) break
        seq.push(r)
      }
    }
    let start = offset
    while (start > 0 && sameFoldedName(data, seq[start - 1], seq[start])) start--
    let i = start
    while (i < seq.length && i < need) {
      let j = i + 1
      while (j < seq.length && sameFoldedName(data, seq[j - 1], seq[j])) j++
      for (let a = i, b = j - 1; a < b; a++, b--) {
        const t = seq[a]
        seq[a] = seq[b]
        seq[b] = t
      }
      i = j
    }
  }
  return Uint32Array.from(seq.slice(offset, need))
}

/** Cursor over a permutation, forward or backward, keeping members, giving up past `budget` steps. */
const walkCursor = (
  order: Uint32Array,
  forward: boolean,
  has: RowTest | undefined,
  stats: PageStats,
  budget: number
): Cursor => {
  let i = forward ? 0 : order.length - 1
  const step = forward ? 1 : -1
  let misses = 0
  return () => {
    const from = i
    while (i >= 0 && i < order.length) {
      const row = order[i]
      i += step
      if (has === undefined || has(row)) {
        stats.visited += (i - from) * step
        return row
      }
      if (++misses > budget) {
        stats.visited += (i - from) * step
        return GAVE_UP
      }
    }
    stats.visited += (i - from) * step
    return END
  }
}

// ---------------------------------------------------------------------------------------------
// Name order.

/**
 * Steps a walk of `order` (from its start, or from its end) takes to meet `k` of the selection's
 * `count` members, read from `WALK_SAMPLES` rows spread evenly over the order. Members are not
 * spread evenly in name order: the rows whose first word begins with a `nom` prefix sit together,
 * and the even estimate (`k · n / count`) sent `nom=ni&tri=-nom&offset=960` walking from the Z
 * names through 520 000 rows before giving up (8 ms at 4.45 M, against 2 ms for the sort it then
 * did). Undefined when no row read is a member (a selection too thin to be seen this way). The
 * walk is taken only when both estimates find it cheapest.
 */
const sampledWalkSteps = (order: Uint32Array, forward: boolean, has: RowTest, k: number, count: number, stats: PageStats): number | undefined => {
  const n = order.length
  const samples = Math.min(WALK_SAMPLES, n)
  const met: Array<number> = []
  for (let j = 0; j < samples; j++) {
    const p = Math.floor(((j + 0.5) * n) / samples)
    if (has(order[forward ? p : n - 1 - p])) met.push(j)
  }
  stats.visited += samples
  if (met.length === 0) return undefined
  // Each row met stands for count / met.length members: the k-th is expected by the one that
  // brings the tally to k. Read one row further: a page is often less than one row met's worth,
  // and a lone member met early says little of the rows around it.
  const needed = Math.ceil((k * met.length) / count)
  const j = met[Math.min(met.length - 1, needed)]
  return Math.min(n, Math.ceil(((j + 1) * n) / samples))
}

/** Rows of the selection sorted by name rank (ascending ranks). */
const sortedRanks = (data: DatasetData, rows: Uint32Array, stats: PageStats): Uint32Array => {
  const ranks = new Uint32Array(rows.length)
  for (let i = 0; i < rows.length; i++) ranks[i] = data.nameRank[rows[i]]
  stats.visited += rows.length
  return ranks.sort()
}

const rankArrayCursor = (data: DatasetData, ranks: Uint32Array, forward: boolean): Cursor => {
  let i = forward ? 0 : ranks.length - 1
  return () => {
    if (i < 0 || i >= ranks.length) return END
    const row = data.byName[ranks[i]]
    i += forward ? 1 : -1
    return row
  }
}

/** A bitmap of the name ranks of `rows` (one bit per rank). */
const rankBitmap = (data: DatasetData, rows: Uint32Array): Uint32Array => {
  const words = new Uint32Array(wordsFor(data.size))
  const nameRank = data.nameRank
  // The loop ends its function (docs/decisions.md, "A hot loop is the whole of its function").
  for (let i = 0; i < rows.length; i++) {
    const rank = nameRank[rows[i]]
    words[rank >>> 5] |= 1 << (rank & 31)
  }
  return words
}

/** Cursor over a bitmap of name ranks (one bit per rank), scanning whole zero words at once. */
const rankBitmapCursor = (data: DatasetData, rows: Uint32Array, forward: boolean, stats: PageStats): Cursor => {
  const words = rankBitmap(data, rows)
  stats.visited += rows.length
  let w = forward ? 0 : words.length - 1
  let bits = words.length > 0 ? words[w] : 0
  return () => {
    for (;;) {
      if (bits !== 0) {
        if (forward) {
          const low = bits & -bits
          const bit = 31 - Math.clz32(low)
          bits ^= low
          return data.byName[(w << 5) + bit]
        }
        const bit = 31 - Math.clz32(bits)
        bits ^= 1 << bit
        return data.byName[(w << 5) + bit]
      }
      w += forward ? 1 : -1
      if (w < 0 || w >= words.length) return END
      bits = words[w]
      stats.visited++
    }
  }
}

/**
 * `-nom` over the whole Dataset: position i of the reverse order is `byName[n-1-i]`, mirrored
 * within its run of equal folded names so that ties keep file order. Touches the window and
 * the runs overlapping it only.
 */
const reverseNameWindowAll = (data: DatasetData, offset: number, limite: number, stats: PageStats): Uint32Array => {
  const n = data.size
  const byName = data.byName
  if (offset >= n) return new Uint32Array(0)
  const hiX = n - 1 - offset
  const loX = Math.max(0, n - offset - limite)
  let a = loX
  while (a > 0 && sameFoldedName(data, byName[a - 1], byName[a])) a--
  let b = hiX
  while (b + 1 < n && sameFoldedName(data, byName[b], byName[b + 1])) b++
  // mirrored[x - a]: the row at byName index x once its run is put back in file order.
  const mirrored = new Uint32Array(b - a + 1)
  let s = a
  while (s <= b) {
    let e = s
    while (e < b && sameFoldedName(data, byName[e], byName[e + 1])) e++
    for (let x = s; x <= e; x++) mirrored[x - a] = byName[s + e - x]
    s = e + 1
  }
  stats.visited += b - a + 1
  const out = new Uint32Array(hiX - loX + 1)
  for (let i = 0; i < out.length; i++) out[i] = mirrored[hiX - i - a]
  return out
}

const nameWindow = (
  data: DatasetData,
  selection: Selection,
  forward: boolean,
  offset: number,
  limite: number,
  stats: PageStats,
  force: Strategy | undefined
): Uint32Array => {
  const n = data.size
  const fixTies = !forward
  const imposed = force === "count" ? undefined : force
  if (selection._tag === "All") {
    stats.strategy = "permutation"
    if (forward) {
      stats.visited += Math.max(0, Math.min(n, offset + limite) - offset)
      return data.byName.slice(offset, offset + limite)
    }
    return reverseNameWindowAll(data, offset, limite, stats)
  }
  const c = selection.count
  const listCost = listingCost(data, selection)
  const rows = (): Uint32Array => selectionRows(selection) ?? new Uint32Array(0)
  const k = offset + limite
  let walkEstimate = Math.min(n, (k * n) / Math.max(c, 1))
  const walkCostOf = (steps: number): number =>
    imposed === undefined ? WALK_STEP * steps + membershipCost(data, selection) : imposed === "walk" ? 0 : Infinity
  let walkCost = walkCostOf(walkEstimate)
  const sortCost = imposed === undefined ? listCost + c * (RANK_READ + SORT_STEP * Math.log2(c + 1)) : imposed === "sort" ? 0 : Infinity
  const bitmapCost = imposed === undefined ? listCost + (RANK_READ + RANDOM_BIT) * c + wordsFor(n) : imposed === "bitmap" ? 0 : Infinity
  const walkWins = (): boolean => walkCost <= sortCost && walkCost <= bitmapCost
  if (imposed === undefined && walkWins()) {
    // The even estimate chose the walk: look at where the members are before walking.
    const sampled = sampledWalkSteps(data.byName, forward, membership(data, selection), k, c, stats)
    if (sampled !== undefined && sampled > walkEstimate) {
      walkEstimate = sampled
      walkCost = walkCostOf(sampled)
    }
  }
  if (walkWins()) {
    stats.strategy = "walk"
    const has = membership(data, selection)
    const budget = walkBudget(walkEstimate, Math.min(sortCost, bitmapCost))
    const page = windowOf(data, walkCursor(data.byName, forward, has, stats, budget), offset, limite, fixTies)
    if (page !== undefined) return page
  }
  if (sortCost <= bitmapCost) {
    stats.strategy = stats.strategy === "walk" ? "walk→sort" : "sort"
    return windowOf(data, rankArrayCursor(data, sortedRanks(data, rows(), stats), forward), offset, limite, fixTies) ??
      new Uint32Array(0)
  }
  stats.strategy = stats.strategy === "walk" ? "walk→bitmap" : "bitmap"
  return windowOf(data, rankBitmapCursor(data, rows(), forward, stats), offset, limite, fixTies) ?? new Uint32Array(0)
}

// ---------------------------------------------------------------------------------------------
// Year order.

/** Year codes in the order of the sort: real years ascending or descending, then 0 (no year). */
const yearBucketOrder = (yearCount: number, ascending: boolean): Array<number> => {
  const order: Array<number> = []
  if (ascending) for (let code = 1; code < yearCount; code++) order.push(code)
  else for (let code = yearCount - 1; code >= 1; code--) order.push(code)
  order.push(0)
  return order
}

const yearWindow = (
  data: DatasetData,
  selection: Selection,
  ascending: boolean,
  offset: number,
  limite: number,
  stats: PageStats,
  force: Strategy | undefined
): Uint32Array => {
  const { codes, rows: postings } = data.annee
  const yearCount = dictionarySize(data.annee.values)
  const order = yearBucketOrder(yearCount, ascending)
  const end = offset + limite
  if (selection._tag === "All") {
    // Skip whole buckets by their lengths, then copy.
    stats.strategy = "buckets"
    const out: Array<number> = []
    let position = 0
    for (const code of order) {
      const start = postings.offsets[code]
      const length = postings.offsets[code + 1] - start
      if (position + length > offset) {
        for (let i = Math.max(0, offset - position); i < length && out.length < limite; i++) {
          out.push(postings.rows[start + i])
          stats.visited++
        }
      }
      position += length
      if (out.length >= limite || position >= end) break
    }
    return Uint32Array.from(out)
  }
  const c = selection.count
  const n = data.size
  const allowed = selection.yearCodes
  let reachable = n
  if (allowed !== undefined) {
    reachable = 0
    for (let code = 0; code < yearCount; code++) if (allowed[code] === 1) reachable += postings.offsets[code + 1] - postings.offsets[code]
  }
  const walkEstimate = Math.min(reachable, (end * reachable) / Math.max(c, 1))
  const walkCost = WALK_STEP * walkEstimate + membershipCost(data, selection)
  // A bitset: counted from its words (a row taken out of its word, its year read), then the
  // window's years walked (about one year's rows). Listed rows: counted, then placed.
  const windowYearsWalk = Math.min(reachable, (limite * reachable) / Math.max(c, 1) + reachable / yearCount)
  const countCost = selection._tag === "Bits" ? wordsFor(n) + (BIT_ROW + 1) * c + WALK_STEP * windowYearsWalk : 6 * c
  if (force === undefined ? walkCost < countCost : force === "walk") {
    stats.strategy = "walk"
    const has = membership(data, selection)
    const budget = walkBudget(walkEstimate, countCost)
    const out: Array<number> = []
    let seen = 0
    let steps = 0
    let visited = 0
    walk: for (const code of order) {
      if (allowed !== undefined && allowed[code] !== 1) continue
      for (let i = postings.offsets[code]; i < postings.offsets[code + 1]; i++) {
        const row = postings.rows[i]
        visited++
        if (has(row)) {
          if (seen >= offset) out.push(row)
          seen++
          if (seen >= end) break walk
        } else if (++steps > budget || ((steps & PROJECT_EVERY) === 0 && (steps * end) / Math.max(seen, 1) > budget)) {
          out.length = 0
          stats.strategy = "walk→count"
          break walk
        }
      }
    }
    stats.visited += visited
    if (stats.strategy === "walk") return Uint32Array.from(out)
  } else {
    stats.strategy = "count"
  }
  if (selection._tag === "Bits") return bitsYearWindow(data, selection.bits, c, order, offset, limite, stats)
  // Counting pass, then a placing pass that keeps only the window: stable, O(c).
  const rows = selectionRows(selection) ?? new Uint32Array(0)
  const counts = new Uint32Array(yearCount)
  for (let i = 0; i < c; i++) counts[codes[rows[i]]]++
  const position = new Uint32Array(yearCount)
  let total = 0
  for (const code of order) {
    position[code] = total
    total += counts[code]
  }
  stats.visited += 2 * c
  if (offset >= c) return new Uint32Array(0)
  const out = new Uint32Array(Math.min(limite, c - offset))
  for (let i = 0; i < c; i++) {
    const row = rows[i]
    const p = position[codes[row]]++
    if (p >= offset && p < end) out[p - offset] = row
  }
  return out
}

/**
 * Year order over a selection held as a bitset, without listing its rows (a listing allocates
 * 4 bytes a row, and fresh memory is the dearest part of a large selection): its rows counted per
 * year straight from its words, the years before the window skipped by their counts, and the
 * window's years walked in file order testing bits. O(words + c + rows of the window's years).
 */
const bitsYearWindow = (
  data: DatasetData,
  bits: Uint32Array,
  count: number,
  order: ReadonlyArray<number>,
  offset: number,
  limite: number,
  stats: PageStats
): Uint32Array => {
  const postings = data.annee.rows
  const counts = new Uint32Array(dictionarySize(data.annee.values))
  countBitRows({ kind: "column", dim: data.annee }, bits, data.size, false, counts)
  stats.visited += bits.length + count
  const out = new Uint32Array(Math.max(0, Math.min(limite, count - offset)))
  let position = 0
  let n = 0
  for (const code of order) {
    if (n === out.length) break
    if (position + counts[code] <= offset) {
      position += counts[code]
      continue
    }
    const last = postings.offsets[code + 1]
    let i = postings.offsets[code]
    for (; i < last && n < out.length; i++) {
      const row = postings.rows[i]
      if (((bits[row >>> 5] >>> (row & 31)) & 1) === 1) {
        if (position >= offset) out[n++] = row
        position++
      }
    }
    stats.visited += i - postings.offsets[code]
  }
  return out
}

// ---------------------------------------------------------------------------------------------

/**
 * The rows at positions `[offset, offset + limite)` of the selection in the order `tri`
 * (fewer at the end of the selection, none past it). `stats`, when given, tells the strategy
 * used and the rows touched; `force` imposes a strategy (tests only).
 */
export const orderedWindow = (
  data: DatasetData,
  selection: Selection,
  tri: Tri,
  offset: number,
  limite: number,
  stats: PageStats = noStats(),
  force?: Strategy
): Uint32Array => {
  const count = selection.count
  stats.strategy = ""
  stats.visited = 0
  if (offset >= count || limite <= 0) {
    stats.strategy = "empty"
    return new Uint32Array(0)
  }
  switch (tri) {
    case "naturel":
    case "-naturel": {
      if (selection._tag === "Bits") {
        stats.strategy = "bits"
        stats.visited = selection.bits.length
        return bitsWindow(selection.bits, tri === "naturel", offset, limite)
      }
      stats.strategy = "direct"
      const length = Math.min(limite, count - offset)
      const out = new Uint32Array(length)
      const rows = selectionRows(selection)
      for (let i = 0; i < length; i++) {
        const position = tri === "naturel" ? offset + i : count - 1 - offset - i
        out[i] = rows === undefined ? position : rows[position]
      }
      stats.visited = length
      return out
    }
    case "nom":
    case "-nom":
      return nameWindow(data, selection, tri === "nom", offset, limite, stats, force)
    case "annee":
    case "-annee":
      return yearWindow(data, selection, tri === "annee", offset, limite, stats, force)
  }
}

