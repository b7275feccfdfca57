/**
 * Examples drawn from the loaded data, for the people who read about the API: a value for every
 * parameter of the OpenAPI document (`openapi.ts`) and, for every route, a request and its real
 * answer (the `/documentation` page), declared on the route's definition (`@equides/domain`
 * `example`) and drawn here from the subject below. Values that are data (an id, a breed, a name) come from the
 * extract; the others are the parameter's documented default or first admitted value.
 *
 * The subject is the equid with the most direct offspring (its pedigree and offspring are worth a
 * look); the mating pairs the parents of its first product whose both parents have a record.
 */
import {
  Api,
  type DatasetData,
  discovery,
  endpointsOf,
  equide,
  type ExampleRequest,
  type ExampleSubject,
  findEquide,
  foldWords,
  idOf,
  nomOf,
  referential,
  routeExamples,
  unheldBreedRow
} from "@equides/domain"
import * as Result from "effect/Result"

/** The row with the most direct offspring (first in file order on ties), or undefined when empty. */
const findSubjectRow = (data: DatasetData): number | undefined => {
  if (data.size === 0) return undefined
  const offsets = data.progeny.offsets
  let best = 0
  for (let row = 1; row < data.size; row++) {
    if (offsets[row + 1] - offsets[row] > offsets[best + 1] - offsets[best]) best = row
  }
  return best
}

/**
 * `findSubjectRow`, found once per Dataset and thread: a pass over every record (about 20 ms at
 * 4.45 M records) that the server's thread otherwise made twice before ready, for the direct lane's
 * warm-up and for the rehearsal, and again for the documentation.
 */
const subjectRows = new WeakMap<DatasetData, { readonly row: number | undefined }>()

const subjectRow = (data: DatasetData): number | undefined => {
  let found = subjectRows.get(data)
  if (found === undefined) {
    found = { row: findSubjectRow(data) }
    subjectRows.set(data, found)
  }
  return found.row
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

export interface Examples {
  /** A value per parameter name, as OpenAPI `example` (arrays for repeatable parameters). */
  readonly parameters: Readonly<Record<string, unknown>>
  readonly requests: ReadonlyArray<ExampleRequest>
}

const withoutUndefined = (record: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(record).filter(([, value]) => value !== undefined))

/**
 * What the routes' examples are drawn from (their documentation, and the warm-up before ready,
 * `execution/work.ts`), or undefined when the extract is empty.
 */
export const exampleSubject = (data: DatasetData, openapi: () => unknown): ExampleSubject | undefined => {
  const row = subjectRow(data)
  if (row === undefined) return undefined
  const mating = matingOf(data, row)
  let unheld: { readonly row: number | undefined } | undefined
  return {
    data,
    row,
    id: idOf(data, row),
    words: foldWords(nomOf(data, row)).map((word) => word.toLowerCase()),
    race: mostFrequent(data, "races"),
    indice: mostFrequent(data, "codes_indice"),
    mating,
    unheldBreed: () => (unheld ??= { row: unheldBreedRow(data) }).row,
    discovery: () => discovery(data),
    openapi
  }
}

/** Examples for this data; none when the extract is empty (nothing real to show). */
export const examplesOf = (data: DatasetData, openapi: () => unknown): Examples => {
  const subject = exampleSubject(data, openapi)
  if (subject === undefined) return { parameters: {}, requests: [] }
  const { id, words: [word], race, indice, mating } = subject
  const robe = mostFrequent(data, "robes")
  const discipline = mostFrequent(data, "disciplines")
  const statut = mostFrequent(data, "statuts_reproducteur")
  const sexe = mostFrequent(data, "sexes")
  const annee = Number(mostFrequent(data, "annees_naissance") ?? Number.NaN)
  const year = Number.isInteger(annee) ? annee : undefined
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
    mere: mating === undefined ? undefined : idOf(data, mating.mere)
  })

  return { parameters, requests: routeExamples(endpointsOf(Api), subject) }
}
