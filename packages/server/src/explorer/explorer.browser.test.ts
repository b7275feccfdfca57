/**
 * The explorer in a real browser (system Chromium, `testing/browser.ts`) over the embedded sample:
 * the scenario by keyboard and clicks, the list form, and on every page type no console
 * error, no horizontal scrolling at 390 and 1280 px, and no serious or critical axe violation.
 * One screenshot per page type goes to `test-output/screenshots/` (ignored by git).
 *
 * The sample is generated (seed 1): GOLDEN DREAM's sire JAZZ DU GUÉ has 64 products, so
 * its progeny has a second page.
 */
import { assert, describe, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import {
  axeViolations,
  browserTestLayer,
  chromiumPath,
  DESKTOP,
  horizontalOverflow,
  openPage,
  PHONE,
  screenshot,
  step
} from "../testing/browser.ts"

const GOLDEN = "-_UrM-jnQZutBE5vIoGikQ"
/** GOLDEN's sire: 64 products. */
const JAZZ = "CeSJpTBtRYS422tZZrrOyA"
/** A trotter mare with both parents on file. */
const MARE = "0tKREMfpS6G1CBikRQqRHw"
const TIMEOUT = 60_000

const executable = chromiumPath()

const PAGES: ReadonlyArray<readonly [string, string]> = [
  ["home", "/explorer/"],
  ["record", `/explorer/equides/${GOLDEN}`],
  ["pedigree", `/explorer/equides/${GOLDEN}/pedigree?generations=5`],
  ["progeny", `/explorer/equides/${GOLDEN}/descendance`],
  ["list", "/explorer/equides?race=Selle+Francais&sexe=Femelle"],
  ["stats", "/explorer/stats"],
  ["sire", `/explorer/equides/${JAZZ}`],
  ["reproducteurs", "/explorer/reproducteurs?code=BTR&produits_min=3"],
  ["genetique", "/explorer/genetique?race=Trotteur+Francais"],
  ["accouplements", `/explorer/accouplements?mere=${MARE}&race=Trotteur+Francais`],
  ["accouplements-form", "/explorer/accouplements"],
  ["essai", `/explorer/accouplements/essai?pere=${JAZZ}&mere=${MARE}`],
  ["documentation", "/documentation"]
]

// Skipped (with how to install it) only outside CI: `chromiumPath` fails the run when CI lacks Chromium.
describe.skipIf(executable === undefined)("the explorer in a browser", () => {
  // The real clock: the server and the browser run in real time (no TestClock to advance).
  layer(browserTestLayer(executable!), { timeout: TIMEOUT, excludeTestServices: true })("pages", (it) => {
    it.effect("search by keyboard → record → pedigree → an ancestor → its progeny → next page", () =>
      Effect.gen(function*() {
        const { page, errors } = yield* openPage("/explorer/")
        const box = page.getByRole("combobox", { name: "Nom d'un équidé" })
        // The suggestions of the whole query: on a loaded machine a pause in the typing fetches a shorter
        // one first, whose late list would reset the active option under the arrow keys.
        const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get("q") === "golden drea")
        yield* step(() => box.pressSequentially("golden drea", { delay: 20 }))
        // The home's box suggests any horse.
        assert.isNull(new URL((yield* step(() => answered)).url()).searchParams.get("sexe"))
        yield* step(() => page.getByRole("option", { name: /GOLDEN DREAM/ }).first().waitFor())
        assert.strictEqual(yield* step(() => box.getAttribute("aria-expanded")), "true")
        yield* screenshot(page, "home")
        // Down the list with the arrow keys until the known horse is the active option.
        let chosen = ""
        for (let i = 0; i < 10 && !chosen.startsWith("GOLDEN DREAM"); i++) {
          yield* step(() => box.press("ArrowDown"))
          yield* step(() => page.waitForFunction("document.querySelector('[aria-activedescendant]') !== null"))
          const active = yield* step(() => box.getAttribute("aria-activedescendant"))
          assert.isString(active)
          const option = page.locator(`#${active}`)
          assert.strictEqual(yield* step(() => option.getAttribute("aria-selected")), "true")
          chosen = (yield* step(() => option.textContent())) ?? ""
        }
        assert.match(chosen, /^GOLDEN DREAM/)
        yield* step(() => box.press("Enter"))
        yield* step(() => page.waitForURL(`**/explorer/equides/${GOLDEN}`))
        assert.strictEqual(yield* step(() => page.locator("h1").textContent()), "GOLDEN DREAM")
        yield* screenshot(page, "record")

        yield* step(() => page.getByRole("link", { name: "Pedigree", exact: true }).click())
        yield* step(() => page.waitForURL(`**/explorer/equides/${GOLDEN}/pedigree`))
        yield* screenshot(page, "pedigree")
        const sire = page.locator(".pedigree .c1.sire a").first()
        assert.strictEqual(yield* step(() => sire.textContent()), "JAZZ DU GUÉ")
        yield* step(() => sire.click())
        yield* step(() => page.waitForURL(/\/explorer\/equides\/[A-Za-z0-9_-]{22}$/))
        assert.strictEqual(yield* step(() => page.locator("h1").textContent()), "JAZZ DU GUÉ")

        yield* step(() => page.getByRole("link", { name: /^Descendance/ }).click())
        yield* step(() => page.waitForURL(/\/descendance$/))
        assert.strictEqual(yield* step(() => page.locator("tbody tr").count()), 50)
        yield* screenshot(page, "progeny")
        yield* step(() => page.getByRole("link", { name: /Page suivante/ }).first().click())
        yield* step(() => page.waitForURL(/offset=50/))
        assert.strictEqual(yield* step(() => page.locator("tbody tr").count()), 14)
        assert.deepStrictEqual(errors, [])
      }), TIMEOUT)

    it.effect("record → its breed's genetics (charts, table, ancestors) → a major ancestor", () =>
      Effect.gen(function*() {
        const { page, errors } = yield* openPage(`/explorer/equides/${GOLDEN}`)
        const reference = page.getByRole("link", { name: /^Trotteur Francais nés \d{4}–\d{4} : \d+,\d\d\s%$/ })
        yield* step(() => reference.click())
        yield* step(() => page.waitForURL(/\/explorer\/genetique\?race=Trotteur\+Francais$/))
        assert.strictEqual(yield* step(() => page.locator("h1").textContent()), "Génétique : Trotteur Francais")
        assert.strictEqual(yield* step(() => page.locator("figure.chart svg[role=img]").count()), 2)
        const ancestors = page.locator("#reference ~ .table-wrap tbody tr")
        assert.strictEqual(yield* step(() => ancestors.count()), 5 + 20)
        const first = page.locator("#reference ~ .table-wrap tbody tr td a").first()
        const name = (yield* step(() => first.textContent())) ?? ""
        yield* step(() => first.click())
        yield* step(() => page.waitForURL(/\/explorer\/equides\/[A-Za-z0-9_-]{22}$/))
        assert.strictEqual(yield* step(() => page.locator("h1").textContent()), name)
        assert.deepStrictEqual(errors, [])
      }), TIMEOUT)

    it.effect("the list form with two filters gives results and facets, its URL holding the state", () =>
      Effect.gen(function*() {
        const { page, errors } = yield* openPage("/explorer/equides")
        yield* step(() => page.locator("#f-race").fill("Selle Francais"))
        yield* step(() => page.getByRole("checkbox", { name: "Femelle" }).check())
        yield* step(() => page.getByRole("button", { name: "Filtrer" }).click())
        yield* step(() => page.waitForURL(/race=Selle\+Francais.*sexe=Femelle/))
        const rows = yield* step(() => page.locator("tbody tr").count())
        assert.isAbove(rows, 0)
        const status = (yield* step(() => page.getByRole("status").first().textContent())) ?? ""
        assert.match(status, /équidés correspondent/)
        const facets = page.locator(".facets li")
        assert.isAbove(yield* step(() => facets.count()), 2)
        // The active filters are marked in their facets.
        assert.strictEqual(yield* step(() => page.locator(".facets a[aria-current=true]").count()), 2)
        yield* screenshot(page, "list")
        assert.deepStrictEqual(errors, [])
      }), TIMEOUT)

    it.effect("a mare's record → Choisir un étalon → the ranking → a coefficient bound, by keyboard", () =>
      Effect.gen(function*() {
        const { page, errors } = yield* openPage(`/explorer/equides/${MARE}`)
        yield* step(() => page.getByRole("link", { name: "Choisir un étalon" }).focus())
        yield* step(() => page.keyboard.press("Enter"))
        yield* step(() => page.waitForURL(`**/explorer/accouplements?mere=${MARE}`))
        assert.strictEqual(yield* step(() => page.locator("tbody tr").count()), 20)
        assert.strictEqual(yield* step(() => page.locator("tbody svg.foal-bar").count()), 20)
        yield* step(() => page.locator("#f-coefficient_max").focus())
        yield* step(() => page.keyboard.type("0.01"))
        yield* step(() => page.keyboard.press("Enter"))
        yield* step(() => page.waitForURL(/coefficient_max=0\.01/))
        // The ranking's status (the combobox has its own, empty).
        const status = (yield* step(() => page.getByRole("status").filter({ hasText: "classé" }).textContent())) ?? ""
        assert.match(status, /étalons? classés? pour CHAMPION DU ROUET/)
        yield* screenshot(page, "accouplements")
        assert.deepStrictEqual(errors, [])
      }), TIMEOUT)

    it.effect("the mare picked by name with the combobox → the ranking → a stallion's test mating, by keyboard", () =>
      Effect.gen(function*() {
        const { page, errors } = yield* openPage("/explorer/accouplements")
        const box = page.getByRole("combobox", { name: "Nom de la jument" })
        const answered = page.waitForResponse((response) => new URL(response.url()).searchParams.get("q") === "champion du rou")
        yield* step(() => box.pressSequentially("champion du rou", { delay: 20 }))
        // The mare's box asks for mares only, and every suggestion says Femelle.
        assert.strictEqual(new URL((yield* step(() => answered)).url()).searchParams.get("sexe"), "Femelle")
        yield* step(() => page.getByRole("option", { name: /CHAMPION DU ROUET/ }).first().waitFor())
        const suggested = yield* step(() => page.getByRole("option").allTextContents())
        assert.isNotEmpty(suggested)
        for (const text of suggested) assert.match(text, / — (.*, )?Femelle\b/, text)
        // Several horses bear the name: down the list to hers.
        let chosen: string | null = null
        for (let i = 0; i < 10 && chosen !== MARE; i++) {
          yield* step(() => box.press("ArrowDown"))
          yield* step(() => page.waitForFunction("document.querySelector('[aria-activedescendant]') !== null"))
          const active = yield* step(() => box.getAttribute("aria-activedescendant"))
          assert.isString(active)
          chosen = yield* step(() => page.locator(`#${active}`).getAttribute("data-id"))
        }
        // Enter writes her id into the form (the page stays), and says so.
        yield* step(() => box.press("Enter"))
        assert.strictEqual(yield* step(() => page.locator("#f-mere").inputValue()), MARE)
        assert.strictEqual(yield* step(() => box.getAttribute("aria-expanded")), "false")
        assert.match((yield* step(() => page.locator("#f-mere-nom-statut").textContent())) ?? "", /^CHAMPION DU ROUET choisi/)
        yield* step(() => page.getByRole("button", { name: "Classer" }).focus())
        yield* step(() => page.keyboard.press("Enter"))
        // The form's empty filters come along (the page drops them).
        yield* step(() => page.waitForURL(new RegExp(`/explorer/accouplements\\?mere=${MARE}&`)))
        // The first stallion's test mating: the same F over all generations as in the ranking.
        const first = page.locator("tbody tr").first()
        const ranked = ((yield* step(() => first.locator("td.foal").textContent())) ?? "").match(/[\d,]+\u00a0%/)?.[0] ?? "no value"
        yield* step(() => first.getByRole("link", { name: /^essai/ }).focus())
        yield* step(() => page.keyboard.press("Enter"))
        yield* step(() => page.waitForURL(/\/explorer\/accouplements\/essai\?pere=[A-Za-z0-9_-]{22}&mere=/))
        assert.match((yield* step(() => page.locator("h1").textContent())) ?? "", / × CHAMPION DU ROUET$/)
        const full = (yield* step(() => page.locator("dl.fields dd").first().textContent())) ?? ""
        assert.isTrue(full.startsWith(ranked), `${full} / ${ranked}`)
        yield* screenshot(page, "essai")
        assert.deepStrictEqual(errors, [])
      }), TIMEOUT)

    for (const [name, path] of PAGES) {
      it.effect(`${name}: no console error, no sideways scrolling at 1280 and 390 px, no serious axe violation`, () =>
        Effect.gen(function*() {
          const { page, errors } = yield* openPage(path, DESKTOP)
          assert.strictEqual(yield* horizontalOverflow(page), 0, "at 1280 px")
          const violations = yield* axeViolations(page)
          assert.deepStrictEqual(violations, [], JSON.stringify(violations))
          if (name === "stats" || name === "documentation" || name === "sire" || name === "reproducteurs" || name === "genetique") yield* screenshot(page, name)
          // The same page narrowed: the layout is recomputed, no reload needed.
          yield* step(() => page.setViewportSize(PHONE))
          assert.strictEqual(yield* horizontalOverflow(page), 0, "at 390 px")
          if (name === "pedigree" || name === "record" || name === "sire") yield* screenshot(page, `${name}-390`)
          assert.deepStrictEqual(errors, [])
        }), TIMEOUT)
    }
  })
})
