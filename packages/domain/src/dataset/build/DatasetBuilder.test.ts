/**
 * The Dataset builder against a naive scan of the records it was given: every column, index and
 * anomaly count is recomputed here record by record, with the plain definitions of design 1.3 and
 * 2.2, and compared with what `buildDataset` produced. These properties guard the builder's
 * optimisations (interning, compact encodings, link resolution, counting sorts): whatever the
 * Dataset stores, what the queries read and serve must stay the same.
 */
import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { equide, linkReference, performancesOf, slugOf, textOf } from "../../query/record.ts"
import type { IndicePerformance, Performance, Reference } from "../../schemas/equide.ts"
import {
  compareText,
  DISCIPLINES,
  INDEX_CODES,
  nameArbitrary,
  recordsArbitrary
} from "../../testing/arbitraries.ts"
import { danglingId, idN } from "../../testing/ids.ts"
import { foldValue, foldWords, slugify } from "../../text/fold.ts"
import { dictionaryValue, dictionaryValues, postingsOf } from "../columns.ts"
import { buildDataset } from "../Dataset.ts"
import { type DatasetData, LINK_NAME_OF_ROW, NO_ROW, NO_YEAR } from "../DatasetData.ts"
import { SEXES } from "../../vocabulary.ts"
import { findRow } from "../idTable.ts"
import { encodeId, ID_BYTES, isCanonicalId } from "../ids.ts"
import { linkName } from "../linkNames.ts"
import { LINK_KEYS, type SourceIndex, type SourceLink, type SourcePerformance, type SourceRecord } from "../SourceRecord.ts"
import { DatasetBuilder } from "./DatasetBuilder.ts"

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

// ---------------------------------------------------------------------------------------------
// Source records with every defect the builder must handle

/** The generator's (and the registry's) filiation format, from the record's own links. */
const canonicalFiliation = (record: SourceRecord): string | undefined => {
  const part = (link: SourceLink | undefined) => link?.nom === undefined || link.race === undefined ? undefined : `${link.nom} ${link.race}`
  const father = record.pere === undefined ? "INCONNU" : part(record.pere)
  if (father === undefined) return undefined
  if (record.mere === undefined) return `Par ${father}`
  const mother = part(record.mere)
  if (mother === undefined) return undefined
  if (record.pere_de_mere === undefined) return `Par ${father} et ${mother}`
  const grandSire = part(record.pere_de_mere)
  return grandSire === undefined ? undefined : `Par ${father} et ${mother} par ${grandSire}`
}

/** The registry's rendering of a performance's indices (`BTR +59 (0.35) / ITR 115 (0.80)`), when it applies. */
const canonicalTexte = (indices: ReadonlyArray<SourceIndex>): string | undefined => {
  const parts: Array<string> = []
  for (const index of indices) {
    if (index.code === undefined || index.valeur === undefined || index.coefficient === undefined) return undefined
    parts.push(`${index.code} ${index.valeur} (${index.coefficient.toFixed(2)})`)
  }
  return parts.join(" / ")
}

const wildText = fc.constantFrom("", "x", "Très bon", "Ü", "\u{1F40E}", "a\"b\\c", "\ud800", "\udfff lone", "  ")

/** Index fields of every kind a source (or a test) may hand over, odd numbers and texts included. */
const wildIndex: fc.Arbitrary<SourceIndex> = fc.record({
  annee: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1950, max: 2030 }) },
    { weight: 1, arbitrary: fc.constantFrom(-0, 0, -5, 2020.5, 2 ** 40, -(2 ** 40), 2 ** 53, Number.NaN, Infinity) }
  ),
  appreciation: fc.oneof({ weight: 4, arbitrary: fc.constantFrom("indice-bon", "indice-moyen") }, { weight: 1, arbitrary: wildText }),
  code: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...INDEX_CODES) }, { weight: 1, arbitrary: wildText }),
  coefficient: fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 0, max: 100 }).map((k) => k / 100) },
    { weight: 1, arbitrary: fc.double() },
    { weight: 1, arbitrary: fc.constantFrom(-0, 0.355, 1.5, 2.56, 0.1 + 0.2, 1e-7, 255 / 100, 256 / 100, -0.01) }
  ),
  valeur: fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: -300, max: 300 }).map(String) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 300 }).map((n) => `+${n}`) },
    { weight: 1, arbitrary: fc.integer().map(String) },
    { weight: 1, arbitrary: fc.constantFrom("+059", "-0", "+-3", "--3", "abc", "1e3", " 12", "99999999999999999999", "1.5", "+") },
    { weight: 1, arbitrary: wildText }
  )
}, { requiredKeys: [] })

const wildPerformance: fc.Arbitrary<SourcePerformance> = fc
  .record({
    discipline: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...DISCIPLINES) }, { weight: 1, arbitrary: wildText }),
    indices: fc.array(wildIndex, { maxLength: 3 }),
    texteKind: fc.constantFrom("canonical", "canonical", "noisy", "free", "none")
  }, { requiredKeys: ["texteKind"] })
  .chain(({ discipline, indices, texteKind }) =>
    wildText.map((free): SourcePerformance => {
      const canonical = indices === undefined ? undefined : canonicalTexte(indices)
      const texte = texteKind === "none"
        ? undefined
        : texteKind === "free" || canonical === undefined
        ? free
        : texteKind === "noisy"
        ? `${canonical} `
        : canonical
      const out: Mutable<SourcePerformance> = {}
      if (discipline !== undefined) out.discipline = discipline
      if (texte !== undefined) out.texte = texte
      if (indices !== undefined) out.indices = indices
      return out
    })
  )

type LinkEdit = "keep" | "alias" | "noName" | "noRace"
type FiliationKind = "none" | "canonical" | "noisy" | "free"
type SlugKind = "none" | "deduced" | "other" | "upper"

interface Edits {
  readonly slug: SlugKind
  readonly filiation: FiliationKind
  readonly links: ReadonlyArray<LinkEdit>
  readonly performances: ReadonlyArray<SourcePerformance> | undefined | "keep"
}

const editsArbitrary: fc.Arbitrary<Edits> = fc.record({
  slug: fc.constantFrom<SlugKind>("none", "deduced", "deduced", "deduced", "other", "upper"),
  filiation: fc.constantFrom<FiliationKind>("none", "canonical", "canonical", "canonical", "noisy", "free"),
  links: fc.array(fc.constantFrom<LinkEdit>("keep", "keep", "keep", "keep", "alias", "noName", "noRace"), { minLength: 3, maxLength: 3 }),
  performances: fc.oneof(
    { weight: 3, arbitrary: fc.constant("keep" as const) },
    { weight: 2, arbitrary: fc.option(fc.array(wildPerformance, { minLength: 1, maxLength: 3 }), { nil: undefined }) }
  )
})

const editLink = (link: SourceLink | undefined, edit: LinkEdit): SourceLink | undefined => {
  if (link === undefined || edit === "keep") return link
  const { nom, race, ...rest } = link
  if (edit === "alias") return { ...rest, nom: "AUTRE NOM", ...(race === undefined ? {} : { race }) }
  if (edit === "noName") return { ...rest, ...(race === undefined ? {} : { race }) }
  return { ...rest, ...(nom === undefined ? {} : { nom }) }
}

const applyEdits = (record: SourceRecord, edits: Edits): SourceRecord => {
  const out: Mutable<SourceRecord> = { ...record }
  LINK_KEYS.forEach((key, k) => {
    const link = editLink(record[key], edits.links[k])
    if (link === undefined) delete out[key]
    else out[key] = link
  })
  const slug = slugify(record.nom ?? "")
  if (edits.slug === "deduced" && slug !== "") out.slug = slug
  else if (edits.slug === "other") out.slug = `${slug}-2`
  else if (edits.slug === "upper" && slug !== "") out.slug = slug.toUpperCase()
  const canonical = canonicalFiliation(out)
  if (edits.filiation === "canonical" && canonical !== undefined) out.filiation_texte = canonical
  else if (edits.filiation === "noisy" && canonical !== undefined) out.filiation_texte = `${canonical} TF`
  else if (edits.filiation === "free") out.filiation_texte = "Par INCONNU et Éloïse"
  if (edits.performances !== "keep") {
    if (edits.performances === undefined) delete out.performances
    else out.performances = edits.performances
  }
  return out
}

/** Lines the builder must skip: their own id is missing or not canonical. */
const unreadableArbitrary: fc.Arbitrary<SourceRecord> = fc.record({
  id: fc.constantFrom("pas-un-identifiant", "", "AAAAAAAAAAAAAAAAAAAAAB", "AAAAAAAAAAAAAAAAAAAA+A"),
  nom: nameArbitrary,
  annee_naissance: fc.constant(1900),
  robe: fc.constant("Blanc"),
  pere: fc.constant({ id: idN(0), nom: "X", race: "TF" })
}, { requiredKeys: ["nom"] })

/** Readable records (see `recordsArbitrary`) edited with the defects above, unreadable lines mixed in. */
const sourceArbitrary = (maxLength = 50): fc.Arbitrary<Array<SourceRecord>> =>
  recordsArbitrary({ maxLength }).chain((records) =>
    fc
      .tuple(
        fc.array(editsArbitrary, { minLength: records.length, maxLength: records.length }),
        fc.array(fc.tuple(fc.nat(), unreadableArbitrary), { maxLength: 3 })
      )
      .map(([edits, unreadable]) => {
        const out = records.map((record, i) => applyEdits(record, edits[i]))
        for (const [at, record] of unreadable) out.splice(at % (out.length + 1), 0, record)
        return out
      })
  )

// ---------------------------------------------------------------------------------------------
// The naive model

interface Model {
  /** Loaded records, in row order. */
  readonly records: ReadonlyArray<SourceRecord>
  readonly all: ReadonlyArray<SourceRecord>
  readonly rowOfId: ReadonlyMap<string, number>
  readonly nameKey: ReadonlyArray<string>
  readonly words: ReadonlyArray<ReadonlySet<string>>
  /** Parent row of each link of each row, or NO_ROW. */
  readonly parent: (row: number, key: (typeof LINK_KEYS)[number]) => number
  readonly descendants: ReadonlyArray<number>
  readonly rows: ReadonlyArray<number>
}

const modelOf = (all: ReadonlyArray<SourceRecord>): Model => {
  const records = all.filter((record) => record.id !== undefined && isCanonicalId(record.id))
  const rowOfId = new Map(records.map((record, row) => [record.id ?? "", row]))
  const parent = (row: number, key: (typeof LINK_KEYS)[number]): number => {
    const id = records[row][key]?.id
    return id === undefined ? NO_ROW : (rowOfId.get(id) ?? NO_ROW)
  }
  const descendants = records.map((_, row) =>
    records.filter((__, child) => parent(child, "pere") === row || parent(child, "mere") === row).length
  )
  return {
    records,
    all,
    rowOfId,
    nameKey: records.map((record) => foldWords(record.nom ?? "").join(" ")),
    words: records.map((record) => new Set(foldWords(record.nom ?? ""))),
    parent,
    descendants,
    rows: records.map((_, row) => row)
  }
}

const SEXE_SET = new Set<string>(SEXES)

const yearKey = (year: number | undefined): number => year ?? Number.POSITIVE_INFINITY

/** The performances as served before any compact encoding: the compact JSON of the record's, read back field by field. */
const servedPerformances = (record: SourceRecord): ReadonlyArray<Performance> | undefined => {
  if (record.performances === undefined || record.performances.length === 0) return undefined
  const raw = JSON.parse(JSON.stringify(record.performances)) as ReadonlyArray<Record<string, unknown>>
  return raw.map((source) => {
    const out: Mutable<Performance> = {}
    if (typeof source.discipline === "string") out.discipline = source.discipline
    if (typeof source.texte === "string") out.texte = source.texte
    if (Array.isArray(source.indices)) {
      out.indices = (source.indices as ReadonlyArray<Record<string, unknown>>).map((index) => {
        const i: Mutable<IndicePerformance> = {}
        if (Number.isSafeInteger(index.annee)) i.annee = index.annee as number
        if (typeof index.appreciation === "string") i.appreciation = index.appreciation
        if (typeof index.code === "string") i.code = index.code
        if (typeof index.coefficient === "number") i.coefficient = index.coefficient
        if (typeof index.valeur === "string") i.valeur = index.valeur
        return i
      })
    }
    return out
  })
}

/** A link as record.ts serves it (design 1.3), from the record alone. */
const servedLink = (model: Model, row: number, key: (typeof LINK_KEYS)[number]): Reference | undefined => {
  const link = model.records[row][key]
  const parent = model.parent(row, key)
  if (parent === NO_ROW && link?.nom === undefined && link?.race === undefined) return undefined
  const out: Mutable<Reference> = {}
  if (parent !== NO_ROW) out.id = model.records[parent].id ?? ""
  if (link?.nom !== undefined) out.nom = link.nom
  if (link?.race !== undefined) out.race = link.race
  out.fiche_disponible = parent !== NO_ROW
  return out
}

const postingsList = (postings: DatasetData["progeny"], key: number): Array<number> => [...postingsOf(postings, key)]

const property = <A>(arbitrary: fc.Arbitrary<A>, check: (value: A) => void, numRuns = 150) =>
  fc.assert(fc.property(arbitrary, check), { numRuns })

const withData = (maxLength?: number) => sourceArbitrary(maxLength).map((all) => ({ model: modelOf(all), data: buildDataset(all) }))

// ---------------------------------------------------------------------------------------------

describe("DatasetBuilder", () => {
  it("loads the readable rows in file order and finds each by id, unknown and malformed ids by none", () => {
    property(withData(), ({ model, data }) => {
      expect(data.size).toBe(model.records.length)
      expect(data.ids.length).toBe(data.size * ID_BYTES)
      model.records.forEach((record, row) => {
        expect(encodeId(data.ids, row * ID_BYTES)).toBe(record.id)
        expect(findRow(data.idTable, data.ids, record.id ?? "")).toBe(row)
      })
      for (let seed = 0; seed < 5; seed++) expect(findRow(data.idTable, data.ids, danglingId(seed))).toBe(-1)
      const first = model.records[0]?.id ?? idN(0)
      for (const malformed of ["", "abc", "pas-un-identifiant", `${first}A`, first.slice(0, 21) + "B", first.replace(/./, "+")]) {
        expect(findRow(data.idTable, data.ids, malformed)).toBe(-1)
      }
    })
  })

  it("refuses a duplicate id, naming the line where it was first seen", () => {
    const builder = new DatasetBuilder()
    expect(builder.add({ id: idN(1), nom: "A" }, 1)).toBeUndefined()
    expect(builder.add({ id: "illisible" }, 2)).toBeUndefined()
    expect(builder.add({ id: idN(2), nom: "B" }, 3)).toBeUndefined()
    expect(builder.add({ id: idN(1), nom: "C" }, 4)).toBe(`duplicate id ${idN(1)} (first seen on line 1)`)
    expect(() => buildDataset([{ id: idN(3) }, { id: idN(3) }])).toThrow(/record 2: duplicate id/)
  })

  it("groups rows per value of every categorical dimension, in file order", () => {
    property(withData(), ({ model, data }) => {
      const dimensions = [
        [data.race, (r: SourceRecord) => r.race ?? ""],
        [data.robe, (r: SourceRecord) => r.robe ?? ""],
        [data.statut, (r: SourceRecord) => r.statut_reproducteur ?? ""],
        [data.sexe, (r: SourceRecord) => (r.sexe !== undefined && SEXE_SET.has(r.sexe) ? r.sexe : "Indeter")],
        [data.annee, (r: SourceRecord) => (r.annee_naissance === undefined ? "" : String(r.annee_naissance))]
      ] as const
      for (const [dimension, valueOf] of dimensions) {
        const { codes } = dimension
        const values = dictionaryValues(dimension.values)
        expect(values[0]).toBe("")
        // The filters' folded order: codes 1.. by folded value, ties by code.
        expect([...dimension.folded]).toEqual(
          values.map((value, code) => [foldValue(value), code] as const).slice(1)
            .sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x - y)).map(([, code]) => code)
        )
        expect(new Set(values).size).toBe(values.length)
        expect(codes.length).toBe(data.size)
        expect(dimension.rows.offsets.length).toBe(values.length + 1)
        model.records.forEach((record, row) => expect(values[codes[row]]).toBe(valueOf(record)))
        for (let code = 0; code < values.length; code++) {
          expect(postingsList(dimension.rows, code)).toEqual(model.rows.filter((row) => valueOf(model.records[row]) === values[code]))
        }
      }
      // Only values some row carries (besides the reserved "" and the four sexes).
      for (const [dimension, valueOf] of dimensions.filter(([d]) => d !== data.sexe)) {
        expect(new Set(dictionaryValues(dimension.values).slice(1))).toEqual(new Set(model.records.map(valueOf).filter((v) => v !== "")))
      }
      expect(dictionaryValues(data.sexe.values)).toEqual(["", ...SEXES])
      // Birth years: chronological (numeric) order, the column keeps the number.
      const years = dictionaryValues(data.annee.values).slice(1).map(Number)
      expect(years).toEqual([...years].sort((a, b) => a - b))
      model.records.forEach((record, row) => expect(data.year[row]).toBe(record.annee_naissance ?? NO_YEAR))
    })
  })

  it("lists the rows of each discipline and index code, and the rows with performances", () => {
    property(withData(), ({ model, data }) => {
      // Dictionaries hold UTF-8: a lone surrogate is kept as U+FFFD.
      const disciplinesOf = (r: SourceRecord) =>
        new Set((r.performances ?? []).flatMap((p) => p.discipline === undefined ? [] : [p.discipline.toWellFormed()]))
      const codesOf = (r: SourceRecord) =>
        new Set((r.performances ?? []).flatMap((p) => (p.indices ?? []).flatMap((i) => i.code === undefined ? [] : [i.code.toWellFormed()])))
      for (const [dimension, valuesOf] of [[data.discipline, disciplinesOf], [data.indice, codesOf]] as const) {
        const values = dictionaryValues(dimension.values)
        expect(new Set(values).size).toBe(values.length)
        expect(new Set(values.filter((v) => v !== ""))).toEqual(new Set(model.records.flatMap((r) => [...valuesOf(r)]).filter((v) => v !== "")))
        values.forEach((value, code) => {
          expect(postingsList(dimension.rows, code)).toEqual(model.rows.filter((row) => valuesOf(model.records[row]).has(value)))
        })
      }
      model.records.forEach((record, row) => {
        const codes = [...postingsOf(data.rowDisciplines, row)].map((code) => dictionaryValue(data.discipline.values, code))
        expect(codes.length).toBe(new Set(codes).size)
        expect(new Set(codes)).toEqual(disciplinesOf(record))
      })
      expect([...data.withPerformances]).toEqual(model.rows.filter((row) => (model.records[row].performances?.length ?? 0) > 0))
    })
  })

  it("resolves links, forward references included; a dangling link keeps the name it carries", () => {
    property(withData(), ({ model, data }) => {
      const raceCounts = new Map<string, number>()
      model.records.forEach((record, row) => {
        for (const key of LINK_KEYS) {
          const column = data.links[key]
          const parent = model.parent(row, key)
          expect(column.row[row]).toBe(parent)
          expect(linkReference(data, column, row)).toEqual(servedLink(model, row, key))
          // A link naming its parent as the parent's record does is not stored twice.
          if (parent !== NO_ROW && record[key]?.nom !== undefined && record[key]?.nom === model.records[parent].nom) {
            expect(linkName(column, row)).toBe(LINK_NAME_OF_ROW)
          }
          const race = record[key]?.race
          if (race !== undefined) raceCounts.set(race, (raceCounts.get(race) ?? 0) + 1)
        }
      })
      const races = dictionaryValues(data.links.races)
      const counts = data.links.raceCounts
      expect(races[0]).toBe("")
      expect(new Set(races.slice(1))).toEqual(new Set(raceCounts.keys()))
      races.forEach((race, code) => expect(counts[code]).toBe(code === 0 ? 0 : raceCounts.get(race)))
    })
  })

  it("serves names, slugs, filiations and performances exactly as the records give them", () => {
    property(withData(), ({ model, data }) => {
      model.records.forEach((record, row) => {
        expect(textOf(data.nom, row)).toBe(record.nom ?? "")
        expect(slugOf(data, row)).toBe(record.slug ?? "")
        const full = equide(data, row)
        expect(full.filiation_texte).toBe(record.filiation_texte)
        expect("filiation_texte" in full).toBe(record.filiation_texte !== undefined)
        expect(performancesOf(data, row)).toEqual(servedPerformances(record))
      })
    })
  })

  it("round-trips performances of every shape, odd numbers and texts included", () => {
    const performances = fc.array(fc.option(fc.array(wildPerformance, { minLength: 0, maxLength: 4 }), { nil: undefined }), {
      minLength: 1,
      maxLength: 8
    })
    property(performances, (lists) => {
      const records = lists.map((list, i): SourceRecord => ({ id: idN(i), ...(list === undefined ? {} : { performances: list }) }))
      const data = buildDataset(records)
      records.forEach((record, row) => expect(performancesOf(data, row)).toEqual(servedPerformances(record)))
    }, 400)
  })

  it("orders names by folded name then file order, and indexes each name word", () => {
    property(withData(), ({ model, data }) => {
      const byName = [...model.rows].sort((a, b) => compareText(model.nameKey[a], model.nameKey[b]) || a - b)
      expect([...data.byName]).toEqual(byName)
      byName.forEach((row, rank) => expect(data.nameRank[row]).toBe(rank))
      const tokens = [...new Set(model.words.flatMap((words) => [...words]))].sort(compareText)
      expect(dictionaryValues(data.names.tokens)).toEqual(tokens)
      expect([...data.names.lengths]).toEqual(tokens.map((token) => token.length))
      const fame = (a: number, b: number) =>
        model.descendants[b] - model.descendants[a] || compareText(model.nameKey[a], model.nameKey[b]) || a - b
      tokens.forEach((token, t) => {
        expect(postingsList(data.names.rows, t)).toEqual(model.rows.filter((row) => model.words[row].has(token)).sort(fame))
      })
    })
  })

  it("orders rows by birth year, absent years last, ties in file order", () => {
    property(withData(), ({ model, data }) => {
      const expected = [...model.rows].sort((a, b) =>
        yearKey(model.records[a].annee_naissance) - yearKey(model.records[b].annee_naissance) || a - b
      )
      expect([...data.byYear]).toEqual(expected)
    })
  })

  it("lists each row's direct offspring by year (absent last), folded name, then file order", () => {
    property(withData(), ({ model, data }) => {
      expect(data.progeny.offsets.length).toBe(data.size + 1)
      model.rows.forEach((row) => {
        const children = model.rows
          .filter((child) => model.parent(child, "pere") === row || model.parent(child, "mere") === row)
          .sort((a, b) =>
            yearKey(model.records[a].annee_naissance) - yearKey(model.records[b].annee_naissance) ||
            compareText(model.nameKey[a], model.nameKey[b]) ||
            a - b
          )
        expect(postingsList(data.progeny, row)).toEqual(children)
        expect(children.length).toBe(model.descendants[row])
      })
    })
  })

  it("counts every anomaly as design 1.3 defines it", () => {
    property(withData(), ({ model, data }) => {
      const readableLinkIds = (record: SourceRecord) =>
        LINK_KEYS.map((key) => record[key]?.id).filter((id): id is string => id !== undefined && isCanonicalId(id))
      const years = model.records.flatMap((record) => (record.annee_naissance === undefined ? [] : [record.annee_naissance]))
      expect(data.anomalies).toEqual({
        annee_naissance_absente: model.records.filter((record) => record.annee_naissance === undefined).length,
        annee_naissance_min: years.length === 0 ? null : Math.min(...years),
        annee_naissance_max: years.length === 0 ? null : Math.max(...years),
        identifiants_illisibles: model.all.length - model.records.length,
        parents_pendants: new Set(model.records.flatMap(readableLinkIds).filter((id) => !model.rowOfId.has(id))).size,
        robe_absente: model.records.filter((record) => record.robe === undefined).length,
        sans_filiation: model.records.filter((record) => readableLinkIds(record).length === 0).length,
        slugs_non_deductibles: model.records.filter((record) => record.slug !== undefined && record.slug !== slugify(record.nom ?? "")).length,
        textes_invalides: model.records.reduce((sum, record) => sum + (record.rejected?.invalidText ?? 0), 0),
        types_invalides: model.records.reduce((sum, record) => sum + (record.rejected?.wrongType ?? 0), 0)
      })
    })
  })
})
