/**
 * Issue 28's exactness target on the embedded sample: every ranked stallion's coefficient (full
 * depth, one indirect pass) equals `/v1/accouplements`' at 12 generations whenever the foal's
 * pedigree is no deeper than 12 (both parents' longest line ≤ 11), for the deepest mares.
 */
import { assert, it } from "@effect/vitest"
import { accouplement, type DatasetData, etalonsAnswer, findEquide, foldValue, idOf, raceOf, sexeOf } from "@equides/domain"
import { loadDataset, SAMPLE_FILE } from "@equides/ingest"
import * as Effect from "effect/Effect"
import * as Result from "effect/Result"

const MARES = 8

it.effect("the ranking's coefficients equal /v1/accouplements?generations=12 on the sample", () =>
  Effect.gen(function*() {
    const data: DatasetData = yield* loadDataset(SAMPLE_FILE)
    const line = data.genetics.longestLine
    const mares: Array<number> = []
    for (let row = 0; row < data.size; row++) {
      if (foldValue(sexeOf(data, row)) === foldValue("Femelle") && line[row] <= 11 && line[row] >= 3 && raceOf(data, row) !== "") mares.push(row)
    }
    mares.sort((a, b) => line[b] - line[a] || a - b)
    let compared = 0
    let related = 0
    for (const mare of mares.slice(0, MARES)) {
      const race = raceOf(data, mare)
      const url = `/v1/accouplements/etalons?mere=${idOf(data, mare)}`
      const page = (offset: number) => {
        const answer = etalonsAnswer(data, mare, { mere: idOf(data, mare), race: [race], limite: 100, offset }, url)
        if (!Result.isSuccess(answer)) throw new Error(answer.failure.detail)
        return answer.success
      }
      const first = page(0)
      // The first page (the least related) and the last (the most related, her own sires and brothers).
      const last = page(Math.max(0, Math.min(10_000, first.pagination.total - 100)))
      for (const { coefficient, etalon } of [...first.donnees, ...last.donnees]) {
        const stallion = findEquide(data, etalon.id)!
        if (line[stallion] > 11) continue
        const cut = accouplement(data, stallion, mare, 12).coefficient
        assert.isBelow(Math.abs(coefficient - cut), 1e-12, `${etalon.id} × ${idOf(data, mare)}`)
        compared++
        if (coefficient > 0) related++
      }
    }
    // Not vacuous: the deepest mares have related stallions in their breed.
    assert.isAbove(compared, 100)
    assert.isAbove(related, 0)
  }), 60_000)
