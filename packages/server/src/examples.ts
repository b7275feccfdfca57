/**
 * Examples drawn from the loaded data, for the people who read about the API: a value for every
 * parameter of the OpenAPI document (`openapi.ts`) and, for every route, a request and its real
 * answer (the `/documentation` page). Values that are data (an id, a breed, a name) come from the
 * extract; the others are the parameter's documented default or first admitted value.
 *
 * The subject is the equid with the most direct offspring (its pedigree and offspring are worth a
 * look); the mating pairs the parents of its first product whose both parents have a record.
 */
import {
  accouplement,
  API_VERSION,
  consanguinite,
  type DatasetData,
  type Execution,
  descendance,
  discovery,
  equide,
  findEquide,
  foldValue,
  foldWords,
  idOf,
  listAnswer,
  meta,
  nomOf,
  pedigree,
  raceOf,
  referential,
  repartitionAnswer,
  reproducteursAnswer,
  sexeOf,
  stats,
  statistiquesDescendance,
  suggestAnswer
} from "@equides/domain"
import { Result } from "effect"

/** The row with the most direct offspring (first in file order on ties), or undefined when empty. */
const subjectRow = (data: DatasetData): number | undefined => {
  if (data.size === 0) return undefined
  const offsets = data.progeny.offsets
  let best = 0
  for (let row = 1; row < data.size; row++) {
    if (offsets[row + 1] - offsets[row] > offsets[best + 1] - offsets[best]) best = row
  }
  return best
}

/** Sire and dam rows of the first product of `row` whose both parents have a record. */
const matingOf = (data: DatasetData, row: number): { readonly pere: number; readonly mere: number } | undefined => {
  const { offsets, rows } = data.progeny
  for (let i = offsets[row]; i < offsets[row + 1]; i++) {
    const record = equide(data, rows[i])
    const pere = record.pere?.id === undefined ? undefined : findEquide(data, record.pere.id)
    const mere = record.mere?.id === undefined ? undefined : findEquide(data, record.mere.id)
    if (pere !== undefined && mere !== undefined && pere !== mere) return { pere, mere }
  }
  return undefined
}

/** The most frequent value of a reference list (first of the list), if any. */
const mostFrequent = (data: DatasetData, dimension: string): string | undefined =>
  Result.getOrUndefined(referential(data, dimension))?.donnees[0]?.valeur

/** An example request: the route template, a URL to run, the answer's body. */
/**
 * A route's example: its answer computed here, or, for a route whose first answer is a
 * whole-pedigree computation, the execution a query worker runs (the page never blocks the event
 * loop on it).
 */
export type ExampleRequest =
  | { readonly route: string; readonly url: string; readonly answer: () => unknown }
  | { readonly route: string; readonly url: string; readonly execution: Execution }

export interface Examples {
  /** A value per parameter name, as OpenAPI `example` (arrays for repeatable parameters). */
  readonly parameters: Readonly<Record<string, unknown>>
  readonly requests: ReadonlyArray<ExampleRequest>
}

const withoutUndefined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))

/** Examples for this data; none when the extract is empty (nothing real to show). */
export const examplesOf = (data: DatasetData, openapi: () => unknown): Examples => {
  const row = subjectRow(data)
  if (row === undefined) return { parameters: {}, requests: [] }
  const id = idOf(data, row)
  const word = foldWords(nomOf(data, row))[0]?.toLowerCase()
  const race = mostFrequent(data, "races")
  const robe = mostFrequent(data, "robes")
  const discipline = mostFrequent(data, "disciplines")
  const indice = mostFrequent(data, "codes_indice")
  const statut = mostFrequent(data, "statuts_reproducteur")
  const sexe = mostFrequent(data, "sexes")
  const annee = Number(mostFrequent(data, "annees_naissance") ?? Number.NaN)
  const year = Number.isInteger(annee) ? annee : undefined
  const mating = matingOf(data, row)
  const parameters = withoutUndefined({
    id,
    q: word,
    nom: word,
    race: race === undefined ? undefined : [race],
    robe: robe === undefined ? undefined : [robe],
    discipline: discipline === undefined ? undefined : [discipline],
    indice: indice === undefined ? undefined : [indice],
    code: indice,
    statut_reproducteur: statut === undefined ? undefined : [statut],
    sexe: sexe === undefined ? undefined : [sexe],
    annee_naissance: year === undefined ? undefined : [year],
    annee_min: year === undefined ? undefined : year - 5,
    annee_max: year,
    pere: mating === undefined ? undefined : idOf(data, mating.pere),
    mere: mating === undefined ? undefined : idOf(data, mating.mere),
    coefficient_max: 0.0625
  })

  const listUrl = `/v1/equides?${race === undefined ? "" : `race=${encodeURIComponent(race)}&`}tri=-annee&limite=3`
  const repartitionUrl = `/v1/stats/repartition?dimension=robe&limite=5${race === undefined ? "" : `&race=${encodeURIComponent(race)}`}`
  const requests: Array<ExampleRequest> = [
    { route: "/", url: "/", answer: () => discovery(data) },
    { route: "/healthz", url: "/healthz", answer: () => ({ statut: "ok", lignes: data.size, version: API_VERSION }) },
    { route: "/readyz", url: "/readyz", answer: () => ({ statut: "ok", lignes: data.size, version: API_VERSION }) },
    { route: "/openapi.json", url: "/openapi.json", answer: openapi },
    { route: "/v1/meta", url: "/v1/meta", answer: () => meta(data) },
    {
      route: "/v1/equides",
      url: listUrl,
      answer: () => Result.getOrUndefined(listAnswer(data, { ...(race === undefined ? {} : { race: [race] }), tri: "-annee", limite: 3 }, listUrl))
    },
    { route: "/v1/equides/{id}", url: `/v1/equides/${id}`, answer: () => equide(data, row) },
    { route: "/v1/equides/{id}/pedigree", url: `/v1/equides/${id}/pedigree?generations=1`, answer: () => pedigree(data, row, 1) },
    { route: "/v1/equides/{id}/descendance", url: `/v1/equides/${id}/descendance?limite=2`, answer: () => descendance(data, row, 2, 0) },
    {
      route: "/v1/equides/{id}/descendance/statistiques",
      url: `/v1/equides/${id}/descendance/statistiques`,
      answer: () => statistiquesDescendance(data, row)
    },
    { route: "/v1/equides/{id}/consanguinite", url: `/v1/equides/${id}/consanguinite`, answer: () => consanguinite(data, row) },
    { route: "/v1/equides/{id}/genetique", url: `/v1/equides/${id}/genetique`, execution: { endpoint: "genetique", request: { kind: "equide", row } } }
  ]
  if (mating !== undefined) {
    const pere = idOf(data, mating.pere)
    const mere = idOf(data, mating.mere)
    requests.push({
      route: "/v1/accouplements",
      url: `/v1/accouplements?pere=${pere}&mere=${mere}`,
      answer: () => accouplement(data, mating.pere, mating.mere)
    })
    // The stallions for the same dam, her breed's: one indirect pass, run by a query worker.
    if (foldValue(sexeOf(data, mating.mere)) === foldValue("Femelle")) {
      const raceMere = raceOf(data, mating.mere)
      const filter = raceMere === "" ? "" : `&race=${encodeURIComponent(raceMere)}`
      const url = `/v1/accouplements/etalons?mere=${mere}${filter}&limite=3`
      const query = { mere, ...(raceMere === "" ? {} : { race: [raceMere] }), limite: 3 }
      requests.push({ route: "/v1/accouplements/etalons", url, execution: { endpoint: "etalons", mere: mating.mere, query, url } })
    }
  }
  if (word !== undefined) {
    requests.push({
      route: "/v1/search",
      url: `/v1/search?q=${encodeURIComponent(word)}&limite=3`,
      answer: () => Result.getOrUndefined(suggestAnswer(data, { q: word, limite: 3 }))
    })
  }
  requests.push(
    { route: "/v1/referentiels/{dimension}", url: "/v1/referentiels/sexes", answer: () => Result.getOrUndefined(referential(data, "sexes")) },
    { route: "/v1/stats", url: "/v1/stats", answer: () => stats(data) },
    {
      route: "/v1/stats/repartition",
      url: repartitionUrl,
      answer: () => Result.getOrUndefined(repartitionAnswer(data, { dimension: "robe", limite: 5, ...(race === undefined ? {} : { race: [race] }) }))
    },
    {
      route: "/v1/stats/genetique",
      url: `/v1/stats/genetique${race === undefined ? "" : `?race=${encodeURIComponent(race)}`}`,
      execution: { endpoint: "genetique", request: { kind: "stats", query: race === undefined ? {} : { race: [race] } } }
    }
  )
  if (indice !== undefined) {
    const url = `/v1/stats/reproducteurs?code=${encodeURIComponent(indice)}&produits_min=1&limite=3`
    requests.push({
      route: "/v1/stats/reproducteurs",
      url,
      answer: () => Result.getOrUndefined(reproducteursAnswer(data, { code: indice, produits_min: 1, limite: 3 }, url))
    })
  }
  return { parameters, requests }
}
