/**
 * What each explorer page rendered on the workers (`pages.ts`) renders before ready (issue 24
 * item 6), drawn from the subject the API's examples are drawn from (`examples.ts`): one entry per
 * kind of `PageExecution`, so that a new kind without its warm-up, or the reason it has none, does
 * not type-check. The execution's `warmUpWork` runs them with the API routes' (their definitions'
 * examples).
 */
import { type ExampleSubject, idOf } from "@equides/domain"
import type { PageExecution } from "./pages.ts"
import { EXPLORER_STATS, listPath, matingPath, matingsPath, pedigreePath, progenyPath, recordPath, siresPath } from "./paths.ts"

export type PageKind = PageExecution["page"]

/** A page's warm-up for `subject`, one page or several (undefined: the data has nothing to show it), or why it has none. */
export type PageWarmUp =
  | ((subject: ExampleSubject) => PageExecution | ReadonlyArray<PageExecution> | undefined)
  | { readonly notWarmed: string }

export const PAGE_WARM_UPS: { readonly [Kind in PageKind]: PageWarmUp } = {
  list: ({ race }) => ({ page: "list", url: listPath([...(race === undefined ? [] : [["race", race] as const]), ["sexe", "Male"]]) }),
  stats: () => ({ page: "stats", url: EXPLORER_STATS }),
  // And a record of a breed the Dataset does not hold (the page shows its reference population beside F): the
  // subject's breed is held, so that path had not run, and each worker's first record page of another breed took
  // 4–13 ms at full scale (issue 24 item 6). The large such breeds are made before (`prepareQueries`); when every
  // large breed is held, this one is small and made here.
  record: ({ data, id, unheldBreed }) => {
    const other = unheldBreed()
    return [id, ...(other === undefined ? [] : [idOf(data, other)])].map((each) => ({ page: "record", url: recordPath(each), id: each }))
  },
  pedigree: ({ id }) => ({ page: "pedigree", url: pedigreePath(id, 8), id }),
  // The subject is the record with the most offspring: its page of products.
  progeny: ({ id }) => ({ page: "progeny", url: progenyPath(id), id }),
  reproducteurs: ({ indice }) => ({ page: "reproducteurs", url: siresPath(indice === undefined ? [] : [["code", indice]]) }),
  genetique: {
    notWarmed: "a breed's figures are /v1/stats/genetique's first use for that breed (0.03–0.26 s a breed per worker at full scale), which that " +
      "route's warm-up leaves out too (it warms the whole extract only); without race the page is a form"
  },
  accouplements: ({ data, mating }) => mating === undefined ? undefined : { page: "accouplements", url: matingsPath([["mere", idOf(data, mating.mere)]]) },
  accouplement: ({ data, mating }) => mating === undefined ? undefined : { page: "accouplement", url: matingPath(idOf(data, mating.pere), idOf(data, mating.mere)) }
}

/** The pages `PAGE_WARM_UPS` renders for `subject`. */
export const pageWarmUps = (subject: ExampleSubject): Array<PageExecution> =>
  Object.values(PAGE_WARM_UPS).flatMap((warmUp) => {
    if (typeof warmUp !== "function") return []
    const pages = warmUp(subject)
    return pages === undefined ? [] : Array.isArray(pages) ? pages : [pages]
  })
