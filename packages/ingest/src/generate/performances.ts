/**
 * Published performance indices: 14 disciplines, 19 index codes. Codes starting with `B` are
 * genetic (BLUP) indices written signed around 0 (`+59`); the others are performance indices
 * written unsigned around 100 (`115`). Disciplines follow the breed: trotters race in harness,
 * ponies jump as ponies, draft horses drive.
 */
import { EXTRACTION_YEAR } from "./calendar.ts"
import type { BreedKind } from "./breeds.ts"
import { type Rng, Weighted } from "./prng.ts"

export const DISCIPLINE_CODES = {
  "TROT COURSE": ["BTR", "ITR"],
  "COURSE PLAT": ["IGP"],
  "COURSE OBSTACLE": ["IGO"],
  "SAUT D'OBSTACLES": ["ISO", "BSO"],
  "CSO JEUNES CHEVAUX": ["BSO"],
  "CONCOURS COMPLET": ["ICC", "BCC"],
  "DRESSAGE": ["IDR", "BDR"],
  "ENDURANCE": ["IRE", "BRE"],
  "PONEY OBSTACLE": ["IPO", "BPO"],
  "PONEY DRESSAGE": ["IPD"],
  "PONEY CONCOURS COMPLET": ["IPC"],
  "ATTELAGE": ["IAT"],
  "HUNTER": ["IHU"],
  "TREC": ["ITC"]
} as const satisfies Record<string, ReadonlyArray<string>>

export type Discipline = keyof typeof DISCIPLINE_CODES
export const DISCIPLINES = Object.keys(DISCIPLINE_CODES) as ReadonlyArray<Discipline>
export const INDEX_CODES: ReadonlyArray<string> = [...new Set(Object.values(DISCIPLINE_CODES).flat())]

/** Chance, before calibration, that a horse of this kind has published indices. */
export const PERFORMANCE_RATE: Readonly<Record<BreedKind, number>> = {
  trot: 0.55,
  gallop: 0.45,
  sport: 0.38,
  arab: 0.3,
  pony: 0.3,
  draft: 0.08,
  leisure: 0.03,
  baroque: 0.2
}

/** Indices are published from the age of 3 (trotters race at 2). */
export const performanceAge = (kind: BreedKind): number => kind === "trot" ? 2 : 3

const DISCIPLINES_BY_KIND: Readonly<Record<BreedKind, Weighted<Discipline>>> = {
  trot: new Weighted([["TROT COURSE", 1]]),
  gallop: new Weighted([["COURSE PLAT", 0.75], ["COURSE OBSTACLE", 0.25]]),
  sport: new Weighted([
    ["SAUT D'OBSTACLES", 0.62],
    ["CONCOURS COMPLET", 0.15],
    ["DRESSAGE", 0.13],
    ["HUNTER", 0.05],
    ["ENDURANCE", 0.03],
    ["ATTELAGE", 0.02]
  ]),
  arab: new Weighted([["ENDURANCE", 0.8], ["COURSE PLAT", 0.2]]),
  pony: new Weighted([["PONEY OBSTACLE", 0.6], ["PONEY DRESSAGE", 0.2], ["PONEY CONCOURS COMPLET", 0.2]]),
  draft: new Weighted([["ATTELAGE", 0.6], ["TREC", 0.3], ["ENDURANCE", 0.1]]),
  leisure: new Weighted([["TREC", 0.4], ["ENDURANCE", 0.4], ["ATTELAGE", 0.2]]),
  baroque: new Weighted([["DRESSAGE", 0.6], ["ATTELAGE", 0.4]])
}

const APPRECIATIONS = [
  "indice-insuffisant",
  "indice-moyen",
  "indice-satisfaisant",
  "indice-bon",
  "indice-excellent"
] as const

const appreciationOf = (z: number): string =>
  APPRECIATIONS[z < -1 ? 0 : z < 0 ? 1 : z < 0.8 ? 2 : z < 1.6 ? 3 : 4]

interface GeneratedIndex {
  code: string
  valeur: string
  coefficient: number
  annee: number
  appreciation?: string
}

const indexFor = (rng: Rng, code: string, born: number): GeneratedIndex => {
  const genetic = code.startsWith("B")
  const value = genetic
    ? Math.round(Math.max(-90, Math.min(130, rng.normal(0, 25))))
    : Math.round(Math.max(40, Math.min(190, rng.normal(110, 20))))
  const valeur = genetic ? (value >= 0 ? `+${value}` : `${value}`) : `${value}`
  // Reliability: skewed towards the top, two decimals as published.
  const coefficient = Math.round((0.08 + 0.91 * Math.pow(rng.float(), 0.6)) * 100) / 100
  const annee = genetic
    ? EXTRACTION_YEAR - (rng.chance(0.8) ? 1 : 0)
    : rng.between(Math.min(EXTRACTION_YEAR, born + 3), EXTRACTION_YEAR)
  const index: GeneratedIndex = { code, valeur, coefficient, annee }
  if (rng.chance(0.97)) index.appreciation = appreciationOf(genetic ? value / 25 : (value - 110) / 20)
  return index
}

const texteOf = (indices: ReadonlyArray<GeneratedIndex>): string =>
  indices.map((index) => `${index.code} ${index.valeur} (${index.coefficient.toFixed(2)})`).join(" / ")

export interface GeneratedPerformance {
  discipline: string
  texte: string
  indices: Array<GeneratedIndex>
}

/** One to three disciplines, each with the indices its codes publish. */
export const performancesFor = (rng: Rng, kind: BreedKind, born: number): Array<GeneratedPerformance> => {
  const table = DISCIPLINES_BY_KIND[kind]
  const chosen: Array<Discipline> = [table.pick(rng)]
  if (chosen[0] === "SAUT D'OBSTACLES" && rng.chance(0.3)) chosen.push("CSO JEUNES CHEVAUX")
  if (table.items.length > 1 && rng.chance(0.12)) {
    const other = table.pick(rng)
    if (!chosen.includes(other)) chosen.push(other)
  }
  return chosen.map((discipline) => {
    const codes: ReadonlyArray<string> = DISCIPLINE_CODES[discipline]
    const published = codes.length > 1 && rng.chance(0.4) ? [rng.pick(codes)] : codes
    const indices = published.map((code) => indexFor(rng, code, born))
    return { discipline, texte: texteOf(indices), indices }
  })
}
