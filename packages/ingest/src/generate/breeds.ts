/**
 * The breeds of the generated extract. A record's `race` is an expanded label; a parentage link
 * names the parent's breed with one of 13 short codes, a coarser nomenclature (several labels share
 * a code), so the link code is a function of the parent's breed, never of the child's.
 *
 * Weights and shares are guesses shaped after the real registry (trotters, thoroughbreds and
 * sport horses dominate; "origine non constatée" rarely has recorded parents).
 */

export const LINK_CODES = ["TF", "PS", "AR", "SF", "AA", "TE", "TETF", "RI", "OES", "CS", "PFS", "ONC", "SBS"] as const
export type LinkCode = (typeof LINK_CODES)[number]

/** Decides the disciplines a horse competes in, and whether it has a race record. */
export type BreedKind = "trot" | "gallop" | "sport" | "arab" | "pony" | "draft" | "leisure" | "baroque"

interface BreedSpec {
  readonly key: string
  readonly label: string
  readonly code: LinkCode
  /** Relative share of records. */
  readonly weight: number
  readonly kind: BreedKind
  /** Chance, before calibration, that a record of this breed has a recorded parent. */
  readonly parentage: number
  /**
   * How closely the breed breeds, in [0, 1]: it grades the share of foals (with a known dam) whose
   * sire is one of the dam's relatives (`kinMatingShare` in kinship.ts) and, above all, how short
   * the loops of its line breeding are (`shortestLoopOf`). Set so that the recent foals' mean F of
   * the main breeds is near what the registry prints as the breed's reference (IFCE: Trotteur
   * Francais 3.77, Arabe 2.87, Haflinger 2.70, Connemara 2.54, Selle Francais 1.26, Pur Sang 1.21,
   * Anglo-Arabe 1.14 %): a closed stud book with a few dominant lines breeds closer than the open
   * sport-horse books; a small breed drifts on its own (the ponies).
   */
  readonly kinship: number
  /** Breeds a sire (dam) is taken from, with their relative affinity. */
  readonly sires: ReadonlyArray<readonly [string, number]>
  readonly dams: ReadonlyArray<readonly [string, number]>
  /** French names follow the yearly initial letter. */
  readonly french: boolean
  /** Countries written on a link to a foreign-registered parent, and how often a parent is one. */
  readonly countries: ReadonlyArray<string>
  readonly foreign: number
}

const SPECS: ReadonlyArray<BreedSpec> = [
  {
    key: "TF", label: "Trotteur Francais", code: "TF", weight: 22, kind: "trot", parentage: 0.99, kinship: 0.8,
    sires: [["TF", 1], ["TETF", 0.06]], dams: [["TF", 1]], french: true, countries: [], foreign: 0
  },
  {
    key: "PS", label: "Pur Sang", code: "PS", weight: 12.5, kind: "gallop", parentage: 0.98, kinship: 0.35,
    sires: [["PS", 1]], dams: [["PS", 1]], french: false, countries: ["GB", "IRL", "USA", "GER"], foreign: 0.3
  },
  {
    key: "SF", label: "Selle Francais", code: "SF", weight: 14, kind: "sport", parentage: 0.97, kinship: 0.4,
    sires: [["SF", 1], ["PS", 0.1], ["AA", 0.08], ["OES", 0.15], ["SBS", 0.1], ["RI", 0.03]],
    dams: [["SF", 1], ["AA", 0.1], ["PS", 0.08], ["OES", 0.08], ["CS", 0.12]],
    french: true, countries: [], foreign: 0
  },
  {
    key: "ONC", label: "Origine Non Constatee", code: "ONC", weight: 13, kind: "leisure", parentage: 0.2, kinship: 0.35,
    sires: [["ONC", 1], ["CS", 0.3], ["TF", 0.15], ["PS", 0.1], ["AR", 0.1], ["COMTOIS", 0.05]],
    dams: [["ONC", 1], ["CS", 0.3], ["TF", 0.1], ["PS", 0.08]], french: false, countries: [], foreign: 0
  },
  {
    key: "CS", label: "Cheval De Selle", code: "CS", weight: 6, kind: "sport", parentage: 0.85, kinship: 0.35,
    sires: [["CS", 1], ["SF", 0.6], ["OES", 0.2], ["PS", 0.1], ["AR", 0.05]],
    dams: [["CS", 1], ["ONC", 0.3], ["SF", 0.3], ["OES", 0.1]], french: true, countries: [], foreign: 0
  },
  {
    key: "PFS", label: "Poney Francais De Selle", code: "PFS", weight: 4.5, kind: "pony", parentage: 0.9, kinship: 0.0,
    sires: [["PFS", 1], ["CONNEMARA", 0.2], ["WELSH", 0.2], ["AR", 0.04]],
    dams: [["PFS", 1], ["CONNEMARA", 0.2], ["WELSH", 0.3], ["SHETLAND", 0.05]], french: true, countries: [],
    foreign: 0
  },
  {
    key: "AR", label: "Arabe", code: "AR", weight: 3.5, kind: "arab", parentage: 0.97, kinship: 0.7,
    sires: [["AR", 1]], dams: [["AR", 1]], french: false, countries: ["POL", "EGY", "USA", "GB"], foreign: 0.15
  },
  {
    key: "AA", label: "Anglo-Arabe", code: "AA", weight: 2.5, kind: "sport", parentage: 0.97, kinship: 0.25,
    sires: [["AA", 1], ["PS", 0.4], ["AR", 0.3]], dams: [["AA", 1], ["AR", 0.3], ["PS", 0.2]], french: true,
    countries: [], foreign: 0
  },
  {
    key: "TE", label: "Trotteur Etranger", code: "TE", weight: 1.8, kind: "trot", parentage: 0.75, kinship: 0.45,
    sires: [["TE", 1], ["TETF", 0.3]], dams: [["TE", 1]], french: false,
    countries: ["USA", "SWE", "ITY", "NOR", "FIN", "GER"], foreign: 0.8
  },
  {
    key: "TETF", label: "Trotteur Etranger", code: "TETF", weight: 0.4, kind: "trot", parentage: 0.75, kinship: 0.45,
    sires: [["TE", 1], ["TETF", 0.5]], dams: [["TE", 1]], french: false, countries: ["USA", "SWE", "ITY"],
    foreign: 0.9
  },
  {
    key: "OES", label: "Selle Etranger", code: "OES", weight: 3, kind: "sport", parentage: 0.65, kinship: 0.35,
    sires: [["OES", 1], ["SBS", 0.2], ["RI", 0.1]], dams: [["OES", 1], ["SBS", 0.2]], french: false,
    countries: ["GER", "NED", "BEL", "GB", "SWE"], foreign: 0.7
  },
  {
    key: "SBS", label: "Cheval De Sport Belge", code: "SBS", weight: 1.2, kind: "sport", parentage: 0.8, kinship: 0.35,
    sires: [["SBS", 1], ["OES", 0.3], ["SF", 0.1]], dams: [["SBS", 1], ["OES", 0.3]], french: false,
    countries: ["BEL"], foreign: 0.8
  },
  {
    key: "RI", label: "Cheval De Sport Irlandais", code: "RI", weight: 0.8, kind: "sport", parentage: 0.75, kinship: 0.45,
    sires: [["RI", 1], ["PS", 0.3]], dams: [["RI", 1]], french: false, countries: ["IRL"], foreign: 0.8
  },
  {
    key: "CONNEMARA", label: "Connemara", code: "PFS", weight: 1.2, kind: "pony", parentage: 0.8, kinship: 0.5,
    sires: [["CONNEMARA", 1]], dams: [["CONNEMARA", 1]], french: false, countries: ["IRL"], foreign: 0.3
  },
  {
    key: "WELSH", label: "Welsh", code: "PFS", weight: 1.2, kind: "pony", parentage: 0.8, kinship: 0.5,
    sires: [["WELSH", 1]], dams: [["WELSH", 1]], french: false, countries: ["GB"], foreign: 0.3
  },
  {
    key: "SHETLAND", label: "Shetland", code: "PFS", weight: 1.5, kind: "pony", parentage: 0.7, kinship: 0.55,
    sires: [["SHETLAND", 1]], dams: [["SHETLAND", 1]], french: false, countries: ["GB", "NED"], foreign: 0.2
  },
  {
    key: "COMTOIS", label: "Comtois", code: "ONC", weight: 1.5, kind: "draft", parentage: 0.85, kinship: 0.55,
    sires: [["COMTOIS", 1]], dams: [["COMTOIS", 1]], french: true, countries: [], foreign: 0
  },
  {
    key: "BRETON", label: "Breton", code: "ONC", weight: 1.2, kind: "draft", parentage: 0.85, kinship: 0.55,
    sires: [["BRETON", 1]], dams: [["BRETON", 1]], french: true, countries: [], foreign: 0
  },
  {
    key: "PERCHERON", label: "Percheron", code: "ONC", weight: 0.6, kind: "draft", parentage: 0.8, kinship: 0.55,
    sires: [["PERCHERON", 1]], dams: [["PERCHERON", 1]], french: true, countries: [], foreign: 0
  },
  {
    key: "COB", label: "Cob Normand", code: "ONC", weight: 0.6, kind: "draft", parentage: 0.8, kinship: 0.55,
    sires: [["COB", 1]], dams: [["COB", 1]], french: true, countries: [], foreign: 0
  },
  {
    key: "LUSITANIEN", label: "Lusitanien", code: "OES", weight: 0.8, kind: "baroque", parentage: 0.7, kinship: 0.55,
    sires: [["LUSITANIEN", 1]], dams: [["LUSITANIEN", 1]], french: false, countries: ["POR"], foreign: 0.6
  },
  {
    key: "QH", label: "Quarter Horse", code: "OES", weight: 0.7, kind: "leisure", parentage: 0.7, kinship: 0.45,
    sires: [["QH", 1]], dams: [["QH", 1]], french: false, countries: ["USA"], foreign: 0.6
  },
  {
    key: "HAFLINGER", label: "Haflinger", code: "ONC", weight: 0.5, kind: "leisure", parentage: 0.7, kinship: 0.45,
    sires: [["HAFLINGER", 1]], dams: [["HAFLINGER", 1]], french: false, countries: ["AUT"], foreign: 0.3
  },
  {
    key: "FRISON", label: "Frison", code: "OES", weight: 0.4, kind: "baroque", parentage: 0.7, kinship: 0.55,
    sires: [["FRISON", 1]], dams: [["FRISON", 1]], french: false, countries: ["NED"], foreign: 0.6
  },
  {
    key: "APPALOOSA", label: "Appaloosa", code: "ONC", weight: 0.3, kind: "leisure", parentage: 0.6, kinship: 0.45,
    sires: [["APPALOOSA", 1]], dams: [["APPALOOSA", 1]], french: false, countries: ["USA"], foreign: 0.5
  }
]

export interface Breed {
  readonly label: string
  readonly code: LinkCode
  readonly weight: number
  readonly kind: BreedKind
  readonly parentage: number
  readonly kinship: number
  /** Indices into BREEDS. */
  readonly sires: ReadonlyArray<readonly [number, number]>
  readonly dams: ReadonlyArray<readonly [number, number]>
  readonly french: boolean
  readonly countries: ReadonlyArray<string>
  readonly foreign: number
}

const indexOfKey = (key: string): number => {
  const index = SPECS.findIndex((spec) => spec.key === key)
  if (index < 0) throw new Error(`unknown breed key ${key}`)
  return index
}

export const BREEDS: ReadonlyArray<Breed> = SPECS.map((spec) => ({
  label: spec.label,
  code: spec.code,
  weight: spec.weight,
  kind: spec.kind,
  parentage: spec.parentage,
  kinship: spec.kinship,
  sires: spec.sires.map(([key, affinity]) => [indexOfKey(key), affinity] as const),
  dams: spec.dams.map(([key, affinity]) => [indexOfKey(key), affinity] as const),
  french: spec.french,
  countries: spec.countries,
  foreign: spec.foreign
}))

export const isTrotter = (breed: number): boolean => BREEDS[breed].kind === "trot"
