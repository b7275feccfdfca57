/**
 * Cost units of the planners' estimates (the filter planner, the orderings, the breakdowns),
 * measured at 4.45 M rows: one word of a bitset pass is 1; a row filtered (a random read of its
 * column) about 5; a bit set at a random row about 7 (4 for ascending rows); a row taken out of a
 * bitset about 3.
 */
export const ROW_FILTER = 5
export const RANDOM_BIT = 7
export const ASCENDING_BIT = 4
export const BIT_ROW = 3
/**
 * A row tested against a name prefix (its name key, the key's tokens, then the tokens: three
 * dependent random reads): measured at 100–125 ns a row at 4.45 M, 20–25 times a column's test,
 * where setting the prefix's rows in a bitset costs 1.3–2.3 ns a row.
 */
export const NAME_FILTER = 20 * ROW_FILTER
