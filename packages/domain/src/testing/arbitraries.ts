/**
 * Test data: the fast-check arbitrary of SourceRecord arrays, with realistic collisions (few breeds,
 * coats and years so that filters hit; shared name words with accented and case variants; parents
 * pointing to other generated records, some dangling or unreadable, a few in a circle or their own
 * parent; rows without year; rows with performances; slugs given or deducible; unknown sexes), and
 * a deterministic generator of large record sets for cost regressions.
 *
 * Not imported by production code (fast-check is a dev dependency).
 */
import fc from "fast-check"
import { buildDataset } from "../dataset/Dataset.ts"
import type { DatasetData } from "../dataset/DatasetData.ts"
import { spellFiliation } from "../dataset/filiation.ts"
import type { SourceLink, SourcePerformance, SourceRecord } from "../dataset/SourceRecord.ts"
import { slugify } from "../text/fold.ts"
import type { FilterInput } from "../query/filters.ts"
import { foldValue, foldWords } from "../text/fold.ts"
import { SEXES } from "../vocabulary.ts"
import { danglingId, idN } from "./ids.ts"

/** Name words: shared prefixes (JO/JOLI/JOLIE), accent and case variants (ÉCLAIR/Eclair), digits, other scripts. */
export const NAME_WORDS = [
  "JOLI", "JOLIE", "JOLY", "JO", "ÉCLAIR", "ECLAIR", "Éclair", "eclair", "DU", "DE", "LA", "BOIS", "BOISÉ",
  "A", "AB", "ABBA", "ABC", "STAR", "STARLETTE", "ROI", "ROYAL", "ROYALE", "D'AUGE", "JAPPELOUP", "ÉTOILE",
  "ETOILE", "Noël", "NOEL", "Z", "ZÈBRE", "2000", "II", "Ñandú", "漢字", "a_b"
] as const

/** Breeds as on records, including a case/accent variant folding like another and a race time. */
export const RACES = ["Trotteur Francais", "Selle Francais", "SELLE FRANÇAIS", "Pur Sang", "Arabe", "1'10\"2 (ASC6H)"] as const
export const ROBES = ["Bai", "Alezan", "Gris", "Noir", "Bai Brun", "Alezan Brûlé", "ALEZAN BRULE"] as const
export const STATUTS = ["Pouliniere", "Etalon Actif", "Étalon Inactif"] as const
export const YEARS = [2000, 2001, 2002, 2003, 2004] as const
export const ABERRANT_YEAR = 193
export const LINK_RACES = ["TF", "PS", "SF", "AR"] as const
export const DISCIPLINES = ["TROT COURSE", "SAUT D'OBSTACLES", "DRESSAGE", "CONCOURS COMPLET"] as const
export const INDEX_CODES = ["BTR", "ISO", "ITR", "IDR"] as const

const SEPARATORS = [" ", " ", " ", " ", "-", "  ", "'"] as const

export const nameArbitrary: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...NAME_WORDS), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.map(([word, sep], i) => (i === 0 ? word : sep + word)).join(""))

/**
 * Text of any Unicode: graphemes, any code points, a lone surrogate, a byte-order mark. Built on
 * demand: fast-check's grapheme tables take seconds to build, and most importers never ask.
 */
let anyTextArbitrary: fc.Arbitrary<string> | undefined
const anyText = (): fc.Arbitrary<string> =>
  anyTextArbitrary ??= fc.oneof(
    fc.constantFrom("\uDC00x", "\uFEFFBai"),
    fc.string({ unit: "grapheme", maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 6 })
  )

/** `usual`, or with `withAnyText` also text of any Unicode. */
const textOf = (usual: fc.Arbitrary<string>, withAnyText: boolean): fc.Arbitrary<string> =>
  withAnyText ? fc.oneof(usual, anyText()) : usual

const performanceArbitrary = (withAnyText: boolean): fc.Arbitrary<SourcePerformance> => fc.record({
  discipline: fc.constantFrom(...DISCIPLINES),
  texte: fc.oneof(
    { weight: 3, arbitrary: fc.constant("BTR +59 (0.35)") },
    { weight: 1, arbitrary: textOf(fc.string({ maxLength: 12 }), withAnyText) }
  ),
  indices: fc.array(
    fc.record({
      annee: fc.constantFrom(2020, 2021, 2024),
      appreciation: fc.constant("indice-satisfaisant"),
      code: fc.constantFrom(...INDEX_CODES),
      coefficient: fc.oneof(fc.constantFrom(0.35, 0.5, 1), fc.double({ min: 0, max: 1, noNaN: true })),
      valeur: fc.constantFrom("+59", "115", "-3")
    }),
    { minLength: 0, maxLength: 2 }
  )
}, { requiredKeys: ["discipline", "indices"] })

type LinkSpec =
  | { readonly kind: "none" }
  | { readonly kind: "row"; readonly target: number; readonly race: string | undefined }
  | { readonly kind: "dangling"; readonly seed: number; readonly race: string | undefined }
  /** Any record, this one or a younger one included: circles of parentage. */
  | { readonly kind: "any"; readonly target: number }
  | { readonly kind: "unreadable" }
  | { readonly kind: "nameOnly" }

const linkRace = fc.option(fc.constantFrom(...LINK_RACES), { nil: undefined, freq: 6 })

const linkArbitrary: fc.Arbitrary<LinkSpec> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({ kind: "none" as const }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("row" as const), target: fc.nat(), race: linkRace }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("dangling" as const), seed: fc.nat(), race: linkRace }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("any" as const), target: fc.nat() }) },
  { weight: 1, arbitrary: fc.constant({ kind: "unreadable" as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: "nameOnly" as const }) }
)

interface RecordSpec {
  readonly nom: string | undefined
  readonly race: string | undefined
  readonly robe: string | undefined
  readonly sexe: string | undefined
  readonly year: number | undefined
  readonly statut: string | undefined
  readonly pere: LinkSpec
  readonly mere: LinkSpec
  readonly pere_de_mere: LinkSpec
  readonly performances: ReadonlyArray<SourcePerformance> | undefined
  /** `deduce`: the slug the registry derives from the name; else a slug given as is. */
  readonly slug: string | undefined
  readonly filiation: string | undefined
}

const specArbitrary = (withAnyText: boolean): fc.Arbitrary<RecordSpec> => fc.record({
  nom: fc.option(textOf(nameArbitrary, withAnyText), { nil: undefined, freq: 12 }),
  race: fc.option(textOf(fc.constantFrom(...RACES), withAnyText), { nil: undefined, freq: 10 }),
  robe: fc.option(textOf(fc.constantFrom(...ROBES), withAnyText), { nil: undefined, freq: 5 }),
  // "Inconnu": a value outside the spec's sexes, served as Indeter.
  sexe: fc.option(fc.constantFrom(...SEXES, "Femelle", "Male", "Inconnu"), { nil: undefined, freq: 10 }),
  year: fc.option(fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...YEARS) }, { weight: 1, arbitrary: fc.constant(ABERRANT_YEAR) }), {
    nil: undefined,
    freq: 4
  }),
  statut: fc.option(fc.constantFrom(...STATUTS), { nil: undefined, freq: 2 }),
  pere: linkArbitrary,
  mere: linkArbitrary,
  pere_de_mere: linkArbitrary,
  performances: fc.option(fc.array(performanceArbitrary(withAnyText), { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 3 }),
  slug: fc.oneof(
    { weight: 2, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: textOf(fc.constantFrom("deduce", "given-slug", "bebe-dor-2"), withAnyText) }
  ),
  filiation: fc.oneof(
    { weight: 3, arbitrary: fc.constant(undefined) },
    { weight: 1, arbitrary: textOf(fc.string({ minLength: 1, maxLength: 20 }), withAnyText) }
  )
})

/**
 * Parents point mostly to records "older" in a salted order, listed before or after their child
 * in the file; a link of kind `any` to any record (circles, a record its own parent).
 */
const toRecords = (specs: ReadonlyArray<RecordSpec>, salt: number): Array<SourceRecord> => {
  const n = specs.length
  const age = (i: number): number => (i * 7919 + salt) % n
  const byAge = new Array<number>(n)
  for (let i = 0; i < n; i++) byAge[age(i)] = i
  const link = (spec: LinkSpec, child: number, nom: string): SourceLink | undefined => {
    switch (spec.kind) {
      case "none":
        return undefined
      case "row": {
        const older = age(child)
        if (older === 0) return undefined
        const parent = byAge[spec.target % older]
        const parentName = specs[parent].nom
        return {
          id: idN(parent, salt),
          ...(parentName === undefined ? {} : { nom: parentName }),
          ...(spec.race === undefined ? {} : { race: spec.race })
        }
      }
      case "any": {
        const parent = spec.target % n
        return { id: idN(parent, salt), ...(specs[parent].nom === undefined ? {} : { nom: specs[parent].nom }) }
      }
      case "dangling":
        return { id: danglingId(spec.seed), nom: `PENDANT ${nom}`, ...(spec.race === undefined ? {} : { race: spec.race }) }
      case "unreadable":
        return { id: "pas-un-identifiant", nom: "ILLISIBLE" }
      case "nameOnly":
        return { nom: "INCONNU" }
    }
  }
  return specs.map((spec, i) => {
    const pere = link(spec.pere, i, "PERE")
    const mere = link(spec.mere, i, "MERE")
    const pdm = link(spec.pere_de_mere, i, "PDM")
    const slug = spec.slug === "deduce" ? slugify(spec.nom ?? "") : spec.slug
    return {
      id: idN(i, salt),
      ...(spec.nom === undefined ? {} : { nom: spec.nom }),
      ...(spec.race === undefined ? {} : { race: spec.race }),
      ...(spec.robe === undefined ? {} : { robe: spec.robe }),
      ...(spec.sexe === undefined ? {} : { sexe: spec.sexe }),
      ...(spec.year === undefined ? {} : { annee_naissance: spec.year }),
      ...(spec.statut === undefined ? {} : { statut_reproducteur: spec.statut }),
      ...(pere === undefined ? {} : { pere }),
      ...(mere === undefined ? {} : { mere }),
      ...(pdm === undefined ? {} : { pere_de_mere: pdm }),
      ...(spec.performances === undefined ? {} : { performances: spec.performances }),
      ...(slug === undefined || slug === "" ? {} : { slug }),
      ...(spec.filiation === undefined ? {} : { filiation_texte: spec.filiation })
    }
  })
}

export interface RecordsOptions {
  readonly minLength?: number
  readonly maxLength?: number
  /**
   * Text fields (names, breeds, coats, slugs, filiations, performance texts) also of any Unicode,
   * lone surrogates included: for storage round trips, not for the query models (which compare
   * folded text).
   */
  readonly withAnyText?: boolean
}

/** Arrays of readable, distinct-id SourceRecords (see the module comment). */
export const recordsArbitrary = (options: RecordsOptions = {}): fc.Arbitrary<Array<SourceRecord>> =>
  fc
    .tuple(fc.array(specArbitrary(options.withAnyText ?? false), { minLength: options.minLength ?? 0, maxLength: options.maxLength ?? 60 }), fc.nat(1 << 20))
    .map(([specs, salt]) => toRecords(specs, salt))

export interface GeneratedDataset {
  readonly records: ReadonlyArray<SourceRecord>
  readonly data: DatasetData
}

/** Generated records with the Dataset built from them. */
export const datasetArbitrary = (options: RecordsOptions = {}): fc.Arbitrary<GeneratedDataset> =>
  recordsArbitrary(options).map((records) => ({ records, data: buildDataset(records) }))

/**
 * `datasetArbitrary`, about half of the records given the filiation the registry spells from their
 * links (`Par … et … par …`, `INCONNU` for no father): the Dataset keeps those as spelled, not as
 * text, and spells them again when it serves them.
 */
export const spelledDatasetArbitrary = (options: RecordsOptions = {}): fc.Arbitrary<GeneratedDataset> =>
  fc.tuple(recordsArbitrary(options), fc.array(fc.boolean(), { maxLength: options.maxLength ?? 60 })).map(([generated, picks]) => {
    const records = generated.map((record, i): SourceRecord => {
      const spelled = picks[i] === true ? spellFiliation(record.pere, record.mere, record.pere_de_mere) : undefined
      return spelled === undefined ? record : { ...record, filiation_texte: spelled }
    })
    return { records, data: buildDataset(records) }
  })

// ---------------------------------------------------------------------------------------------
// Large deterministic sets (cost regressions): no fast-check shrinking, built in one pass.

/** A small deterministic PRNG (mulberry32). */
export const prng = (seed: number): (() => number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const SYLLABLES = ["A", "BA", "LO", "RI", "TA", "MON", "JO", "LI", "DE", "STAR", "ROI", "AL", "AN", "AR", "EL", "US", "IX", "Z"]

/**
 * `count` records with names built from syllables (many distinct words, most sharing a few
 * initial letters, `A` among them), the usual dimensions, and parents among earlier records
 * (a few sires with many products).
 */
export const syntheticRecords = (count: number, seed = 1): Array<SourceRecord> => {
  const random = prng(seed)
  const pick = <A>(values: ReadonlyArray<A>): A => values[Math.floor(random() * values.length)]
  const word = (): string => {
    const syllables = 1 + Math.floor(random() * 3)
    let w = ""
    for (let s = 0; s < syllables; s++) w += pick(SYLLABLES)
    return w
  }
  const records: Array<SourceRecord> = []
  for (let i = 0; i < count; i++) {
    const words = 1 + Math.floor(random() * 3)
    const nom: Array<string> = []
    for (let w = 0; w < words; w++) nom.push(word())
    const sire = i > 10 ? Math.floor(random() ** 3 * Math.min(i, 1000)) : -1
    const dam = i > 10 ? Math.floor(random() * i) : -1
    const hasPerf = random() < 0.25
    records.push({
      id: idN(i, seed),
      nom: nom.join(" "),
      race: pick(RACES),
      sexe: pick(SEXES.slice(0, 3)),
      ...(random() < 0.9 ? { robe: pick(ROBES) } : {}),
      ...(random() < 0.95 ? { annee_naissance: 1980 + Math.floor(random() * 45) } : {}),
      ...(sire >= 0 ? { pere: { id: idN(sire, seed), race: "TF" } } : {}),
      ...(dam >= 0 && dam !== sire ? { mere: { id: idN(dam, seed), race: "TF" } } : {}),
      ...(hasPerf
        ? { performances: [{ discipline: pick(DISCIPLINES), indices: [{ code: pick(INDEX_CODES), valeur: "+1" }] }] }
        : {})
    })
  }
  return records
}

// ---------------------------------------------------------------------------------------------
// A naive model of the rows, straight from the records (reference for property tests).

/** One row as a test would read it from its record, with the ingestion rules applied naively. */
export interface NaiveRow {
  readonly row: number
  readonly record: SourceRecord
  /** Folded words of the name, in order (duplicates kept). */
  readonly words: ReadonlyArray<string>
  /** Folded name, the key of `tri=nom`. */
  readonly nameKey: string
  readonly sexe: string
  readonly year: number | undefined
  readonly disciplines: ReadonlySet<string>
  readonly indices: ReadonlySet<string>
  readonly hasPerformances: boolean
  /** Rows whose `pere` or `mere` id is this row's id. */
  readonly descendants: number
}

const SEXE_SET = new Set<string>(SEXES)

/** The naive model of records assumed all readable with distinct ids (as the arbitraries make them). */
export const naiveRows = (records: ReadonlyArray<SourceRecord>): Array<NaiveRow> => {
  const rowOf = new Map<string, number>()
  records.forEach((r, i) => rowOf.set(r.id ?? "", i))
  const descendants = new Array<number>(records.length).fill(0)
  for (const r of records) {
    const p = r.pere?.id === undefined ? undefined : rowOf.get(r.pere.id)
    const m = r.mere?.id === undefined ? undefined : rowOf.get(r.mere.id)
    if (p !== undefined) descendants[p]++
    if (m !== undefined && m !== p) descendants[m]++
  }
  return records.map((record, row) => {
    const words = foldWords(record.nom ?? "")
    const performances = record.performances ?? []
    return {
      row,
      record,
      words,
      nameKey: words.join(" "),
      sexe: record.sexe !== undefined && SEXE_SET.has(record.sexe) ? record.sexe : "Indeter",
      year: record.annee_naissance,
      disciplines: new Set(performances.flatMap((p) => (p.discipline === undefined ? [] : [p.discipline]))),
      indices: new Set(performances.flatMap((p) => (p.indices ?? []).flatMap((i) => (i.code === undefined ? [] : [i.code])))),
      hasPerformances: performances.length > 0,
      descendants: descendants[row]
    }
  })
}

/** The rows of each folded word of the names, each row once per word, in row order. */
export const rowsByWord = (rows: ReadonlyArray<NaiveRow>): Map<string, Array<NaiveRow>> => {
  const byWord = new Map<string, Array<NaiveRow>>()
  for (const row of rows) {
    for (const word of new Set(row.words)) {
      let those = byWord.get(word)
      if (those === undefined) byWord.set(word, those = [])
      those.push(row)
    }
  }
  return byWord
}

/** Code-unit comparison, as the Dataset's sorted indexes use. */
export const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0)

/** Randomly re-cases and de-accents/accents a value: it must still fold to the same thing. */
export const variantArbitrary = (value: string): fc.Arbitrary<string> =>
  fc.constantFrom(
    value,
    value.toLowerCase(),
    value.toUpperCase(),
    value.normalize("NFD").replace(/\p{M}+/gu, ""),
    ` ${value.toLowerCase()} `
  )

// ---------------------------------------------------------------------------------------------
// Filter inputs over generated records, and their naive evaluation.

const distinct = <A>(values: Iterable<A | undefined>): Array<A> => [...new Set(values)].filter((v): v is A => v !== undefined)

/** Joins some values with commas, keeps others as separate elements (both forms are admitted). */
const grouped = (values: ReadonlyArray<string>): fc.Arbitrary<Array<string>> =>
  fc.boolean().map((comma) => (comma && values.length > 1 ? [values.slice(0, 2).join(" , "), ...values.slice(2)] : [...values]))

/** `arbitrary` one time in `1 + absentWeight`, else undefined: most filters stay absent. */
const sometimes = <A>(arbitrary: fc.Arbitrary<A>, absentWeight = 3): fc.Arbitrary<A | undefined> =>
  fc.oneof({ weight: absentWeight, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

const valuesOf = (present: ReadonlyArray<string>): fc.Arbitrary<Array<string> | undefined> =>
  present.length === 0
    ? fc.constant(undefined)
    : sometimes(
      fc.uniqueArray(fc.constantFrom(...present), { minLength: 1, maxLength: 2 })
        .chain((values) => fc.tuple(...values.map(variantArbitrary)))
        .chain(grouped)
    )

/**
 * Admitted filter inputs for a set of records: values present in the records (in case/accent
 * variants, repeated or comma-joined), years present or not, year bounds, name-word prefixes.
 * Every input resolves without error.
 */
export const filterInputArbitrary = (records: ReadonlyArray<SourceRecord>): fc.Arbitrary<FilterInput> => {
  const rows = naiveRows(records)
  const words = distinct(rows.flatMap((r) => r.words))
  const nomArbitrary: fc.Arbitrary<string | undefined> = words.length === 0
    ? fc.constant(undefined)
    : sometimes(
      fc.array(fc.tuple(fc.constantFrom(...words), fc.nat()), { minLength: 1, maxLength: 2 })
        .map((picks) => picks.map(([w, cut]) => w.slice(0, 1 + (cut % w.length))).join(" "))
        .chain(variantArbitrary)
    )
  const year = fc.constantFrom(1999, ...YEARS, ABERRANT_YEAR)
  return fc.record({
    race: valuesOf(distinct(records.map((r) => r.race))),
    robe: valuesOf(distinct(records.map((r) => r.robe))),
    sexe: valuesOf([...SEXES]),
    discipline: valuesOf(distinct(rows.flatMap((r) => [...r.disciplines]))),
    indice: valuesOf(distinct(rows.flatMap((r) => [...r.indices]))),
    statut_reproducteur: valuesOf(distinct(records.map((r) => r.statut_reproducteur))),
    annee_naissance: sometimes(
      fc.array(fc.oneof(year, year.map(String)), { minLength: 1, maxLength: 3 })
    ),
    nom: nomArbitrary,
    annee_min: sometimes(fc.integer({ min: 1999, max: 2005 })),
    annee_max: sometimes(fc.integer({ min: 1999, max: 2005 })),
    avec_performances: sometimes(fc.constantFrom("true", "false", "1", "0", "OUI", "Non"))
  })
}

const foldedSet = (values: ReadonlyArray<string | number> | undefined): Set<string> | undefined =>
  values === undefined
    ? undefined
    : new Set(values.flatMap((v) => String(v).split(",")).map((v) => foldValue(v)))

/** The rows (file order) an input keeps, evaluated naively record by record. */
export const naiveSelect = (rows: ReadonlyArray<NaiveRow>, input: FilterInput): Array<number> => {
  const race = foldedSet(input.race)
  const robe = foldedSet(input.robe)
  const sexe = foldedSet(input.sexe)
  const discipline = foldedSet(input.discipline)
  const indice = foldedSet(input.indice)
  const statut = foldedSet(input.statut_reproducteur)
  const years = input.annee_naissance === undefined
    ? undefined
    : new Set(input.annee_naissance.flatMap((v) => String(v).split(",")).map((v) => Number(v.trim())))
  const nom = input.nom === undefined ? undefined : foldWords(input.nom)
  const perf = input.avec_performances === undefined
    ? undefined
    : ["true", "1", "oui"].includes(String(input.avec_performances).toLowerCase())
  const inSet = (set: Set<string> | undefined, value: string | undefined): boolean =>
    set === undefined || (value !== undefined && set.has(foldValue(value)))
  return rows.filter((r) =>
    inSet(race, r.record.race) &&
    inSet(robe, r.record.robe) &&
    inSet(sexe, r.sexe) &&
    inSet(statut, r.record.statut_reproducteur) &&
    (discipline === undefined || [...r.disciplines].some((d) => discipline.has(foldValue(d)))) &&
    (indice === undefined || [...r.indices].some((d) => indice.has(foldValue(d)))) &&
    (years === undefined || (r.year !== undefined && years.has(r.year))) &&
    (input.annee_min === undefined || (r.year !== undefined && r.year >= input.annee_min)) &&
    (input.annee_max === undefined || (r.year !== undefined && r.year <= input.annee_max)) &&
    (nom === undefined || nom.every((w) => r.words.some((x) => x.startsWith(w)))) &&
    (perf === undefined || r.hasPerformances === perf)
  ).map((r) => r.row)
}
