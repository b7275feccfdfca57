import { describe, expect, it } from "@effect/vitest"
import { nearestName, unknownParameterHint } from "./hints.ts"

const LIST = ["race", "robe", "sexe", "nom", "tri", "vue", "limite", "offset", "annee_min", "annee_max"]

describe("nearestName", () => {
  it("finds a prefix either way, then an edit distance up to 2 (transpositions count 1)", () => {
    expect(nearestName("limit", LIST)).toBe("limite")
    expect(nearestName("limites", LIST)).toBe("limite")
    expect(nearestName("lim", LIST)).toBe("limite")
    expect(nearestName("ofset", LIST)).toBe("offset")
    expect(nearestName("ofsfet", LIST)).toBe("offset")
    expect(nearestName("Race", LIST)).toBe("race")
    expect(nearestName("rcae", LIST)).toBe("race")
    expect(nearestName("annee", LIST)).toBe("annee_min")
  })

  it("suggests nothing far away", () => {
    expect(nearestName("zzzzzz", LIST)).toBeUndefined()
    expect(nearestName("", [])).toBeUndefined()
  })
})

describe("unknownParameterHint", () => {
  it("names the nearest admitted parameter, then lists them all", () => {
    expect(unknownParameterHint("limit", ["q", "limite"])).toBe(
      "paramètre le plus proche : «\u00a0limite\u00a0» ; paramètres admis : q, limite"
    )
    expect(unknownParameterHint("xyzxyz", ["q", "limite"])).toBe("paramètres admis : q, limite")
    expect(unknownParameterHint("x", [])).toBe("cette route n'admet aucun paramètre de requête")
  })
})
