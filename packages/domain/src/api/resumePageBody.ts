/**
 * A list page of the default view (`vue=resume`) written straight as UTF-8 bytes (issue 9,
 * item 3): the bytes `jsonEncoder(PageEquides)` writes for `listAnswer(…)`'s summaries, checked
 * equal by a property test (`resumePageBody.test.ts`) and, through the server, by the comparison
 * of both answer paths. As for the progeny page (`descendanceBody.ts`), a name's bytes are copied
 * from the arena with JSON's escapes instead of being decoded to a string, escaped and encoded
 * back, and no object is built per summary.
 *
 * The schema stays the one source of the shape: a change to `Resume` or `PageResumes` that this
 * writer does not follow fails the property test.
 */
import { type DatasetData, NO_YEAR } from "../dataset/DatasetData.ts"
import type { Pagination } from "../schemas/lists.ts"
import { emptyWriter, utf8, writeIdentity } from "./jsonBytes.ts"

// A Resume's fixed parts, in the schema's key order.
const OPEN_PAGE = utf8.encode(`{"donnees":[`)
const OPEN_RESUME = utf8.encode(`{"id":"`)
const NEXT_RESUME = utf8.encode(`,{"id":"`)
const YEAR = utf8.encode(`,"annee_naissance":`)
const ROBE = utf8.encode(`,"robe":`)
const CLOSE = utf8.encode("}")
const PAGINATION = utf8.encode(`],"pagination":`)

/** The JSON body of a page of summaries of `rows`, in their order, with its `pagination`. */
export const resumePageBody = (data: DatasetData, rows: ArrayLike<number>, pagination: Pagination): Uint8Array => {
  const w = emptyWriter()
  w.bytes(OPEN_PAGE)
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]
    w.bytes(i === 0 ? OPEN_RESUME : NEXT_RESUME)
    writeIdentity(w, data, row)
    const year = data.year[row]
    if (year !== NO_YEAR) {
      w.bytes(YEAR)
      w.int(year)
    }
    if (data.robe.codes[row] !== 0) {
      w.bytes(ROBE)
      w.dictionaryString(data.robe.values, data.robe.codes[row])
    }
    w.bytes(CLOSE)
  }
  w.bytes(PAGINATION)
  // A few numbers and links, the depth note in French: as JSON.stringify writes them.
  w.bytes(utf8.encode(JSON.stringify(pagination)))
  w.bytes(CLOSE)
  return w.take()
}
