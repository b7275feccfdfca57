/**
 * One line of the extract as the scrape has it: a plain JSON object with the source's defects
 * (absent values written as a missing key, `null` or `""`; polluted `race`; unreadable ids;
 * links to pages that were never scraped) and the personal `naisseur` field the service must drop.
 */
import { SEXES, slugify } from "@equides/domain"
import { BREEDS } from "./breeds.ts"
import { calibrate, EXTRACTION_YEAR } from "./calendar.ts"
import { COATS } from "./coats.ts"
import { corruptId, generatedId } from "./ids.ts"
import { breederName, horseName, raceTime } from "./names.ts"
import { PERFORMANCE_RATE, performanceAge, performancesFor } from "./performances.ts"
import {
  BROODMARE,
  FEMALE,
  HAS_PRODUCTS,
  MALE,
  type Population,
  type Side,
  STALLION
} from "./population.ts"
import { Rng } from "./prng.ts"

/** A source line before any parsing: keys may be missing, values may be `null` or `""`. */
export type RawLine = Record<string, unknown>

export interface RawLink {
  id: string
  nom: string
  race: string
  pays?: string
  alias?: string
}

const STREAM_RECORD = 0x2a
const STREAM_NAME = 0x3b
const STREAM_PARENT = 0x4c
const STREAM_ALIAS = 0x5d
const STREAM_POLLUTION = 0x6e

/**
 * Share of the registry's lines whose `race` is a race time, each with its own race code: its
 * extract of 4.45 M lines has 11 747 distinct `race` values (the reference service's
 * documentation), nearly all of them such times. A race time repeats only by chance (about 142
 * million possible), so at `racePollution` N about N × 11 747 distinct values per 4.45 M lines.
 */
export const REGISTRY_RACE_TIME_SHARE = 11_747 / 4_450_000

const PERFORMANCE_SCALE = calibrate(0.249, (breed, year) => {
  const kind = BREEDS[breed].kind
  return EXTRACTION_YEAR - year >= performanceAge(kind) ? PERFORMANCE_RATE[kind] : 0
})

/** Recomputes what the population does not store. One instance per generated file. */
export class LineBuilder {
  private readonly population: Population
  private readonly rng: Rng
  private readonly nameRng: Rng
  private readonly parentRng: Rng
  private readonly pollutionRng: Rng
  /** Chance that a line's `race` is replaced by a race time (0: the generator's own pollution only). */
  private readonly pollution: number

  /** `racePollution`: see `GenerateOptions`. */
  constructor(population: Population, racePollution = 0) {
    this.population = population
    this.pollution = racePollution * REGISTRY_RACE_TIME_SHARE
    this.pollutionRng = new Rng(population.seed, 0, STREAM_POLLUTION)
    this.rng = new Rng(population.seed, 0, STREAM_RECORD)
    this.nameRng = new Rng(population.seed, 0, STREAM_NAME)
    this.parentRng = new Rng(population.seed, 0, STREAM_PARENT)
  }

  /** The registered name of any animal of the population, written or not. */
  nameOf(index: number): string {
    const { seed, year, breed } = this.population
    return horseName(this.nameRng.reseed(seed, index, STREAM_NAME), year[index], BREEDS[breed[index]])
  }

  /** How every child's line names this parent: the same on each of them. */
  linkTo(parent: number): RawLink {
    const { seed, breed } = this.population
    const b = BREEDS[breed[parent]]
    const link: RawLink = { id: generatedId(seed, parent), nom: this.nameOf(parent), race: b.code }
    const rng = this.parentRng.reseed(seed, parent, STREAM_PARENT)
    if (b.countries.length > 0 && rng.chance(b.foreign)) link.pays = rng.pick(b.countries)
    if (rng.chance(0.015)) {
      const aliasRng = rng.reseed(seed, parent, STREAM_ALIAS)
      link.alias = horseName(aliasRng, this.population.year[parent], b)
    }
    return link
  }

  line(index: number): RawLine {
    const { seed, year, sex, breed, sire, dam, flags, defects } = this.population
    const rng = this.rng.reseed(seed, index, STREAM_RECORD)
    const b = BREEDS[breed[index]]
    const line: RawLine = {}
    // The scrape writes an absent value three ways; readers must treat them alike.
    const absentText = (key: string) => {
      const roll = rng.float()
      if (roll >= 0.5) line[key] = roll < 0.85 ? null : ""
    }
    const absentValue = (key: string) => {
      if (rng.chance(0.3)) line[key] = null
    }

    const id = generatedId(seed, index)
    const idDefect = defects.ownId.get(index)
    line.id = idDefect === undefined ? id : corruptId(id, idDefect, rng)

    const nom = this.nameOf(index)
    const slugRoll = rng.float()
    if (slugRoll < 0.004) line.slug = undeducibleSlug(rng, nom)
    else if (slugRoll < 0.006) absentText("slug")
    else line.slug = slugify(nom)
    // A parent's links name it, so its own line keeps the name too.
    if (rng.chance(0.0003) && (flags[index] & HAS_PRODUCTS) === 0) absentText("nom")
    else line.nom = nom

    const raceRoll = rng.float()
    if (raceRoll < (b.kind === "trot" ? 0.005 : 0.0005)) line.race = raceTime(rng)
    else if (raceRoll < 0.006) absentText("race")
    else line.race = b.label
    // A stream of its own: the other fields draw what they draw without the option.
    if (this.pollution > 0) {
      const pollution = this.pollutionRng.reseed(seed, index, STREAM_POLLUTION)
      if (pollution.chance(this.pollution)) line.race = raceTime(pollution)
    }

    line.sexe = SEXES[sex[index]]
    if (rng.chance(0.025)) absentText("robe")
    else line.robe = COATS[b.kind].pick(rng)

    const born = year[index]
    const aberrant = defects.year.get(index)
    if (aberrant !== undefined) line.annee_naissance = aberrant
    else if (rng.chance(0.002)) absentValue("annee_naissance")
    else line.annee_naissance = born

    const statut = breedingStatus(rng, sex[index], flags[index], born)
    if (statut !== undefined) line.statut_reproducteur = statut
    else absentValue("statut_reproducteur")

    if (b.kind === "trot" && EXTRACTION_YEAR - born >= 2 && rng.chance(0.4)) line.record = raceTime(rng)
    else absentValue("record")

    const pere = sire[index] >= 0 ? this.linkTo(sire[index]) : undefined
    const mere = dam[index] >= 0 ? this.linkTo(dam[index]) : undefined
    const grandSire = dam[index] >= 0 ? sire[dam[index]] : -1
    const pereDeMere = grandSire >= 0 ? this.linkTo(grandSire) : undefined
    const linkDefect = defects.linkId.get(index)
    if (linkDefect !== undefined) {
      const damaged = linkDefect.side === "pere" ? pere : mere
      if (damaged !== undefined) damaged.id = corruptId(damaged.id, linkDefect.defect, rng)
    }

    if ((pere !== undefined || mere !== undefined) && rng.chance(0.97)) {
      line.filiation_texte = filiation(pere, mere, pereDeMere)
    } else absentText("filiation_texte")
    setLink(line, "pere", pere, absentValue)
    setLink(line, "mere", mere, absentValue)
    setLink(line, "pere_de_mere", pereDeMere, absentValue)

    const eligible = EXTRACTION_YEAR - born >= performanceAge(b.kind)
    if (eligible && rng.chance(PERFORMANCE_SCALE * PERFORMANCE_RATE[b.kind])) {
      line.performances = performancesFor(rng, b.kind, born)
    } else absentValue("performances")

    if (rng.chance(0.95)) line.naisseur = breederName(rng)
    else absentText("naisseur")
    return line
  }
}

const setLink = (line: RawLine, key: Side | "pere_de_mere", link: RawLink | undefined, absent: (key: string) => void) => {
  if (link !== undefined) line[key] = link
  else absent(key)
}

const filiation = (pere: RawLink | undefined, mere: RawLink | undefined, pereDeMere: RawLink | undefined): string => {
  const father = pere !== undefined ? `${pere.nom} ${pere.race}` : "INCONNU"
  if (mere === undefined) return `Par ${father}`
  const mother = `${mere.nom} ${mere.race}`
  return pereDeMere !== undefined
    ? `Par ${father} et ${mother} par ${pereDeMere.nom} ${pereDeMere.race}`
    : `Par ${father} et ${mother}`
}

/** A slug that is not slugify(nom): an old name, a de-duplication suffix, a truncation. */
const undeducibleSlug = (rng: Rng, nom: string): string => {
  const slug = slugify(nom)
  switch (rng.below(3)) {
    case 0:
      return `${slug}-${rng.between(1, 9)}`
    case 1: {
      const cut = slug.lastIndexOf("-")
      return cut > 0 ? slug.slice(0, cut) : `${slug}-${rng.between(1, 9)}`
    }
    default:
      return `${slug}-${rng.pick(["fr", "tf", "ps", "sf", "old"])}`
  }
}

/** Declared by the source for some breeding animals; a gelding never has one. */
const breedingStatus = (rng: Rng, sex: number, flags: number, born: number): string | undefined => {
  const age = EXTRACTION_YEAR - born
  if (sex === MALE && (flags & STALLION) !== 0 && age >= 3) {
    if ((flags & HAS_PRODUCTS) !== 0 ? !rng.chance(0.85) : !rng.chance(0.3)) return undefined
    if (age > 24) return "Etalon Inactif"
    return rng.pick(["Etalon Actif", "Etalon Actif", "Etalon Approuve", "Etalon Autorise"])
  }
  if (sex === FEMALE && age >= 3) {
    if ((flags & HAS_PRODUCTS) !== 0) return rng.chance(0.65) ? "Pouliniere" : undefined
    if ((flags & BROODMARE) !== 0) return rng.chance(0.1) ? "Pouliniere" : undefined
  }
  return undefined
}
