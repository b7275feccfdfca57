/**
 * The request-size limit (spec, Limits; design 3): more than 64 query parameters or more than
 * 4096 bytes of query string is a 400 `#erreur-parametre-invalide` with `parametre: "query"`,
 * decided before anything else runs. The same single pass over the query string picks the few
 * values the quota's cost estimate reads.
 *
 * Paths and headers too long for Node's parser (`maxHeaderSize`, 16 KiB by default) never reach
 * this code: `server.ts` answers them with a 431 problem from the `clientError` event.
 */

export const MAX_QUERY_PARAMETERS = 64
export const MAX_QUERY_BYTES = 4096

export interface QueryScan {
  /** Parameters (non-empty `&`-separated members). */
  readonly count: number
  /** Bytes of the query string as received (after `?`). */
  readonly bytes: number
  readonly limite: string | undefined
  readonly vue: string | undefined
  readonly generations: string | undefined
  readonly dimension: string | undefined
  /** Parameters that only page or present a list (`limite`, `offset`, `tri`, `vue`): a list with no other is unfiltered. */
  readonly paging: number
}

const EMPTY: QueryScan = { count: 0, bytes: 0, limite: undefined, vue: undefined, generations: undefined, dimension: undefined, paging: 0 }

const decode = (raw: string): string => {
  if (!raw.includes("%") && !raw.includes("+")) return raw
  try {
    return decodeURIComponent(raw.replaceAll("+", " "))
  } catch {
    return raw
  }
}

/**
 * The query string of `url` (path and query, as Node gives it: one char per byte): its size, and
 * the first value of `limite`, `vue`, `generations` and `dimension`, how many parameters only page. Stops reading values past the
 * limits (the request is refused anyway).
 */
export const scanQuery = (url: string): QueryScan => {
  const start = url.indexOf("?")
  if (start < 0 || start === url.length - 1) return EMPTY
  const bytes = url.length - start - 1
  let count = 0
  let limite: string | undefined
  let vue: string | undefined
  let generations: string | undefined
  let dimension: string | undefined
  let paging = 0
  let from = start + 1
  while (from <= url.length) {
    let to = url.indexOf("&", from)
    if (to < 0) to = url.length
    if (to > from) {
      count++
      if (count <= MAX_QUERY_PARAMETERS && bytes <= MAX_QUERY_BYTES) {
        const eq = url.indexOf("=", from)
        const nameEnd = eq < 0 || eq > to ? to : eq
        const name = url.slice(from, nameEnd)
        const value = nameEnd === to ? "" : url.slice(nameEnd + 1, to)
        switch (name) {
          case "limite":
            limite ??= decode(value)
            paging++
            break
          case "vue":
            vue ??= decode(value)
            paging++
            break
          case "offset":
          case "tri":
            paging++
            break
          case "generations":
            generations ??= decode(value)
            break
          case "dimension":
            dimension ??= decode(value)
            break
        }
      }
    }
    from = to + 1
  }
  return { count, bytes, limite, vue, generations, dimension, paging }
}

export const isOversized = (scan: QueryScan): boolean => scan.count > MAX_QUERY_PARAMETERS || scan.bytes > MAX_QUERY_BYTES
