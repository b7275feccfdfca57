/**
 * Fake names. A horse's name is a pure function of its key, its birth year and its breed, so the
 * generator never stores names: a link re-derives the parent's name when a child is written.
 */
import type { Breed } from "./breeds.ts"
import {
  AFFIXES,
  FIRST_NAMES,
  FOREIGN_WORDS,
  LAST_NAMES,
  MARKUP_NAMES,
  NAME_SUFFIXES,
  POPULAR_NAMES,
  WORDS_BY_LETTER,
  yearLetter
} from "./lexicon.ts"
import type { Rng } from "./prng.ts"

const LETTERS = Object.keys(WORDS_BY_LETTER)
const VOWEL_LETTERS = ["A", "E", "I", "O", "U"]
const ALL_WORDS = LETTERS.flatMap((letter) => WORDS_BY_LETTER[letter])

const anyWord = (rng: Rng): string => rng.pick(ALL_WORDS)

const affix = (rng: Rng): string => ` ${rng.pick(AFFIXES)}`

/** Pet names, the ones with markup characters last: the skewed draw below makes them the rarest. */
const PET_NAMES = [...POPULAR_NAMES, ...MARKUP_NAMES]

/**
 * Upper case, accents and punctuation kept. French-bred horses mostly follow the yearly initial;
 * a small share are common pet names, so the same name recurs across many records.
 */
export const horseName = (rng: Rng, year: number, breed: Breed): string => {
  const roll = rng.float()
  if (roll < 0.015) {
    // Squaring a uniform skews the draw towards the head of the list: JOLLY JUMPER comes up most.
    const u = rng.float()
    return PET_NAMES[Math.floor(u * u * PET_NAMES.length)]
  }
  const letter = breed.french && rng.chance(0.85) ? yearLetter(year) : undefined
  const first = letter !== undefined ? rng.pick(WORDS_BY_LETTER[letter]) : anyWord(rng)
  const shape = rng.float()
  let name: string
  if (shape < 0.12) name = first
  else if (shape < 0.42) name = `${first} ${rng.chance(0.2) ? rng.pick(FOREIGN_WORDS) : anyWord(rng)}`
  else if (shape < 0.84) name = first + affix(rng)
  else if (shape < 0.9 && (letter === undefined || letter === "L")) {
    const vowelWord = rng.pick(WORDS_BY_LETTER[rng.pick(VOWEL_LETTERS)])
    name = `L'${vowelWord}${rng.chance(0.5) ? affix(rng) : ""}`
  } else if (letter === undefined) name = `${rng.pick(FOREIGN_WORDS)} ${rng.pick(FOREIGN_WORDS)}`
  else name = `${first} ${rng.pick(FOREIGN_WORDS)}`
  return rng.chance(0.01) ? name + rng.pick(NAME_SUFFIXES) : name
}

/** A breeder: mostly a person (the reason the field is personal data), sometimes a farm. */
export const breederName = (rng: Rng): string => {
  if (rng.chance(0.15)) return `${rng.pick(["EARL", "SCEA", "GAEC", "HARAS"])}${affix(rng)}`
  return `${rng.pick(FIRST_NAMES)} ${rng.pick(LAST_NAMES)}`
}

const CODE_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/** A trotter's reduction per kilometre and its race code, as the source writes it: `1'11"9 (AEL3V)`. */
export const raceTime = (rng: Rng): string => {
  const seconds = rng.between(9, 26)
  const letter = (): string => CODE_LETTERS[rng.below(CODE_LETTERS.length)]
  const code = rng.pick(["A", "V", "C", "E", "P"]) + letter() + letter() + rng.between(1, 9) + letter()
  return `1'${seconds.toString().padStart(2, "0")}"${rng.below(10)} (${code})`
}
