/**
 * The explorer's pages that show an API route's answer for the same query (`pages.ts` of the
 * explorer): each is measured by `--diverse` on the paths of that route's family, its path swapped
 * for the page's (issue 24 item 9: every explorer page, with probes under it). A page so measured
 * costs what its route does plus its markup; a route without a family leaves its page without one.
 */
import { EXPLORER_GENETICS, EXPLORER_MATING, EXPLORER_MATINGS, EXPLORER_SIRES } from "../../packages/server/src/pageRoutes.ts"
import type { Family } from "./corpora.ts"

export const EXPLORER_TWINS = [
  { name: "explorer-sires", page: EXPLORER_SIRES, route: "/v1/stats/reproducteurs" },
  // The route's family asks its plain URI (a breed's first use is not measured, `firstUsePer`): here the page's form.
  { name: "explorer-genetics", page: EXPLORER_GENETICS, route: "/v1/stats/genetique" },
  { name: "explorer-matings", page: EXPLORER_MATINGS, route: "/v1/accouplements/etalons" },
  { name: "explorer-mating", page: EXPLORER_MATING, route: "/v1/accouplements" }
] as const

export type ExplorerTwinName = (typeof EXPLORER_TWINS)[number]["name"]

/** A family per page of `EXPLORER_TWINS` whose route one of `families` sends (the first that does). */
export const explorerTwins = (families: ReadonlyArray<Family>): Array<Family> =>
  EXPLORER_TWINS.flatMap(({ name, page, route }): Array<Family> => {
    const twin = families.find((family) => family.route === route)
    if (twin === undefined) return []
    return [{
      name,
      description: `${page}: the paths of ${twin.name}`,
      paths: twin.paths.map((path) => page + path.slice(route.length)),
      ...(twin.sameUri === true ? { sameUri: true } : {})
    }]
  })
