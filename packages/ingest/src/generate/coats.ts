/** Coat colours (`robe`) in the source's title case, skewed as in the registry and by kind of horse. */
import type { BreedKind } from "./breeds.ts"
import { Weighted } from "./prng.ts"

const BASE: ReadonlyArray<readonly [string, number]> = [
  ["Bai", 30],
  ["Alezan", 18],
  ["Bai Brun", 12],
  ["Gris", 9],
  ["Noir", 5],
  ["Bai Fonce", 4],
  ["Alezan Brule", 3],
  ["Pie", 2.5],
  ["Gris Pommele", 2],
  ["Bai Clair", 1.5],
  ["Isabelle", 1.5],
  ["Palomino", 1],
  ["Rouan", 1],
  ["Alezan Crins Laves", 1],
  ["Aubere", 0.8],
  ["Pie Bai", 0.8],
  ["Pie Alezan", 0.7],
  ["Pie Noir", 0.5],
  ["Noir Pangare", 0.4],
  ["Souris", 0.3],
  ["Appaloosa", 0.3],
  ["Cremello", 0.2],
  ["Blanc", 0.2]
]

const BOOSTS: Readonly<Record<BreedKind, Readonly<Record<string, number>>>> = {
  trot: { "Bai": 1.3, "Bai Brun": 1.5, "Gris": 0.3, "Pie": 0 },
  gallop: { "Bai": 1.3, "Alezan": 1.3, "Bai Brun": 1.5, "Pie": 0, "Palomino": 0, "Isabelle": 0 },
  sport: {},
  arab: { "Gris": 5, "Gris Pommele": 3 },
  pony: { "Pie": 3, "Palomino": 3, "Isabelle": 2, "Souris": 3 },
  draft: { "Alezan Crins Laves": 10, "Aubere": 5, "Rouan": 3, "Gris Pommele": 2 },
  leisure: { "Pie": 3, "Appaloosa": 8, "Palomino": 2 },
  baroque: { "Noir": 8, "Gris": 2 }
}

export const COATS: Readonly<Record<BreedKind, Weighted<string>>> = Object.fromEntries(
  Object.entries(BOOSTS).map(([kind, boost]) => [
    kind,
    new Weighted(BASE.map(([coat, weight]) => [coat, weight * (boost[coat] ?? 1)] as const))
  ])
) as Record<BreedKind, Weighted<string>>
