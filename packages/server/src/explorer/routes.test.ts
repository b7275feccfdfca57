/**
 * The explorer over HTTP: the contract holds on pages as on the API (ETag, 304, compression,
 * headers, CSP), static files are immutable under hashed names, errors are pages with the API's
 * status, and `/` gives browsers the explorer's home.
 */
import { assert, layer } from "@effect/vitest"
import { fromRecords, inMemoryProvenance } from "@equides/domain"
import * as Effect from "effect/Effect"
import { CACHE_POLICY } from "../responseHeaders.ts"
import { ABSENT, DAM, DAUGHTER, FAMILY, GELDING, GRANDSON, SIRE, SON, TROTTER } from "../testing/family.ts"
import { raw, testServer } from "../testing/server.ts"
import { assetUrl, SCRIPT, STYLESHEET } from "./assets.ts"
import { IMMUTABLE_POLICY } from "./paths.ts"

const CSP = "default-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
const text = (body: Buffer): string => body.toString("utf8")

// Loaded in 2025, so that each breed has a reference population (its last five birth years up to 2025).
const LOADED_2025 = { ...inMemoryProvenance(FAMILY.length), ingestedAt: "2025-06-01T00:00:00.000Z" }

layer(testServer(fromRecords(FAMILY, LOADED_2025)))("explorer routes", (it) => {
  it.effect("every page type is HTML in French under the policy, with an ETag that answers 304", () =>
    Effect.gen(function*() {
      for (
        const path of [
          "/explorer/",
          `/explorer/equides/${SON}`,
          `/explorer/equides/${SON}/pedigree?generations=3`,
          `/explorer/equides/${SIRE}/descendance?limite=2`,
          "/explorer/equides?race=selle%20francais&sexe=Male",
          "/explorer/stats",
          `/explorer/equides/${SIRE}`,
          "/explorer/reproducteurs",
          "/explorer/reproducteurs?code=iso&produits_min=1",
          "/explorer/genetique",
          "/explorer/genetique?race=selle%20francais",
          "/explorer/accouplements",
          `/explorer/accouplements?mere=${DAUGHTER}`,
          `/explorer/accouplements/essai?pere=${SON}&mere=${DAUGHTER}`
        ]
      ) {
        const reply = yield* raw(path)
        assert.strictEqual(reply.status, 200, path)
        assert.strictEqual(reply.headers["content-type"], "text/html; charset=utf-8", path)
        assert.strictEqual(reply.headers["content-security-policy"], CSP, path)
        assert.strictEqual(reply.headers["cache-control"], CACHE_POLICY, path)
        assert.match(text(reply.body), /^<!doctype html>\n<html lang="fr">/, path)
        assert.notMatch(text(reply.body), /<script>|<style>| style="/, `${path}: inline code`)
        const again = yield* raw(path, { headers: { "if-none-match": reply.headers["etag"] ?? "" } })
        assert.strictEqual(again.status, 304, path)
        const compressed = yield* raw(path, { headers: { "accept-encoding": "gzip" } })
        assert.strictEqual(compressed.headers["content-encoding"], "gzip", path)
      }
    }))

  it.effect("pages link the JSON they show, and render the same rows", () =>
    Effect.gen(function*() {
      const page = text((yield* raw("/explorer/equides?race=selle%20francais&tri=nom&limite=2")).body)
      assert.include(page, "href=\"/v1/equides?race=selle+francais&amp;tri=nom&amp;limite=2\"")
      const api = JSON.parse(text((yield* raw("/v1/equides?race=selle+francais&tri=nom&limite=2")).body))
      for (const row of api.donnees) assert.include(page, `href="/explorer/equides/${row.id}"`)
      assert.include(page, `${api.pagination.total}</strong> équidés`)
      assert.include(page, "href=\"/explorer/equides?race=selle%20francais&amp;tri=nom&amp;limite=2&amp;offset=2\"")
    }))

  it.effect("the breed's genetics page links the JSON it shows, and each of its major ancestors", () =>
    Effect.gen(function*() {
      const page = text((yield* raw("/explorer/genetique?race=selle%20francais&annee_min=1990")).body)
      assert.include(page, "href=\"/v1/stats/genetique?race=selle+francais&amp;annee_min=1990\"")
      const api = JSON.parse(text((yield* raw("/v1/stats/genetique?race=selle%20francais&annee_min=1990")).body))
      assert.isAbove(api.reference.principaux_ancetres.length, 0)
      for (const ancestor of api.reference.principaux_ancetres) assert.include(page, `href="/explorer/equides/${ancestor.id}"`)
      for (const year of api.annees) assert.include(page, `<tr><td>${year.annee}</td>`)
      assert.include(page, "<h1>Génétique : Selle Francais</h1>")
    }))

  it.effect("the home is `/explorer/` (and `/` for a browser); `/explorer` redirects there", () =>
    Effect.gen(function*() {
      const bare = yield* raw("/explorer")
      assert.strictEqual(bare.status, 308)
      assert.strictEqual(bare.headers["location"], "/explorer/")
      const browser = yield* raw("/", { headers: { accept: "text/html,application/xhtml+xml,*/*;q=0.8" } })
      assert.include(text(browser.body), "role=\"combobox\"")
      // The home's box suggests any horse.
      assert.notInclude(text(browser.body), "data-sexe")
      assert.strictEqual(browser.headers["content-security-policy"], CSP)
      const home = yield* raw("/explorer/")
      assert.strictEqual(text(home.body), text(browser.body))
    }))

  it.effect("static files are served under their hash, immutable; others are 404; /favicon.ico is an icon", () =>
    Effect.gen(function*() {
      for (const asset of [STYLESHEET, SCRIPT]) {
        const reply = yield* raw(assetUrl(asset))
        assert.strictEqual(reply.status, 200)
        assert.strictEqual(reply.headers["cache-control"], IMMUTABLE_POLICY)
        assert.strictEqual(reply.headers["content-type"], asset.contentType)
        const revalidated = yield* raw(assetUrl(asset), { headers: { "if-none-match": reply.headers["etag"] ?? "" } })
        assert.strictEqual(revalidated.status, 304)
        assert.strictEqual(revalidated.headers["cache-control"], IMMUTABLE_POLICY)
      }
      assert.strictEqual((yield* raw("/explorer/static/explorer.000000000000.css")).status, 404)
      const icon = yield* raw("/favicon.ico")
      assert.strictEqual(icon.status, 200)
      assert.strictEqual(icon.headers["content-type"], "image/x-icon")
      assert.deepStrictEqual([...icon.body.subarray(0, 4)], [0, 0, 1, 0])
    }))

  it.effect("an unknown id is a 404 page, a refused parameter a 400 page, an empty form field is no filter", () =>
    Effect.gen(function*() {
      const missing = yield* raw(`/explorer/equides/${ABSENT}`)
      assert.strictEqual(missing.status, 404)
      assert.include(text(missing.body), "Ressource introuvable")
      const unknown = yield* raw(`/explorer/equides/${DAM}?vue=complet`)
      assert.strictEqual(unknown.status, 400)
      assert.include(text(unknown.body), "Le paramètre vue n&#39;est pas admis")
      const deep = yield* raw(`/explorer/equides/${SON}/pedigree?generations=9`)
      assert.strictEqual(deep.status, 400)
      const filter = yield* raw("/explorer/equides?race=licorne")
      assert.strictEqual(filter.status, 400)
      assert.include(text(filter.body), "Filtre refusé")
      for (const refused of ["/explorer/genetique?race=licorne", "/explorer/genetique?race=selle+francais&annee_min=2010&annee_max=2000"]) {
        const reply = yield* raw(refused)
        assert.strictEqual(reply.status, 400, refused)
        assert.include(text(reply.body), "Paramètre refusé", refused)
      }
      const empty = yield* raw("/explorer/equides?nom=&race=&sexe=Hongre&annee_min=")
      assert.strictEqual(empty.status, 200)
      assert.include(text(empty.body), `href="/explorer/equides/${GELDING}"`)
      assert.include(text(empty.body), "<strong>1</strong> équidé correspond")
    }))

  it.effect("the stallions for a mare: her record links the page, which ranks as the route does and refuses as it does", () =>
    Effect.gen(function*() {
      const mare = text((yield* raw(`/explorer/equides/${DAUGHTER}`)).body)
      assert.include(mare, `href="/explorer/accouplements?mere=${DAUGHTER}">Choisir un étalon</a>`)
      assert.notInclude(text((yield* raw(`/explorer/equides/${SON}`)).body), "Choisir un étalon")
      const page = text((yield* raw(`/explorer/accouplements?mere=${DAUGHTER}&coefficient_max=`)).body)
      assert.include(page, `href="/v1/accouplements/etalons?mere=${DAUGHTER}"`)
      const order = [TROTTER, GRANDSON, SON, SIRE].map((id) => page.indexOf(`href="/explorer/equides/${id}"`))
      assert.isAbove(order[0], 0)
      assert.deepStrictEqual(order, [...order].sort((a, b) => a - b))
      assert.include(page, `href="/explorer/accouplements/essai?pere=${SIRE}&amp;mere=${DAUGHTER}"`)
      assert.include(page, "<strong>4</strong> étalons classés")
      // Picked by name with the home's combobox, which writes her id into the form's field.
      assert.include(page, `role="combobox"`)
      assert.include(page, `data-fill="f-mere"`)
      // It suggests mares only (the browser test, skipped without chromium, sees the request's sexe).
      assert.include(page, `data-sexe="Femelle"`)
      assert.include(page, `value="ÉCLAIR DU BOIS" type="text"`)
      assert.include(page, `<script src="${assetUrl(SCRIPT)}" defer></script>`)
      // Every foal's F drawn as a bar; her half-brother's foal 12.5 %, her sire's 25 %.
      assert.strictEqual(page.match(/<svg class="foal-bar"/g)?.length, 4)
      // The breed's mean F (her breed's foals of 2006–2010: none inbred) as a mark at 0 across each bar.
      assert.include(page, "trait vertical : F moyen des Selle Francais nés de 2006 à 2010, 0\u00a0%.")
      const mark = `<line class="mean" x1="0.00" x2="0.00" y1="0" y2="10"></line>`
      assert.include(page, `<rect class="bar" width="50.00" height="10"></rect>${mark}</svg> 12,5\u00a0%<span class="skip">, au-dessus de la moyenne de la race</span>`)
      assert.include(page, `<rect class="bar" width="100.00" height="10"></rect>${mark}</svg> 25\u00a0%`)
      const notAMare = text((yield* raw(`/explorer/accouplements?mere=${SON}`)).body)
      assert.include(notAMare, "mere désigne un équidé de sexe Male : les étalons se classent pour une jument (sexe Femelle).")
      assert.strictEqual((yield* raw(`/explorer/accouplements?mere=${ABSENT}`)).status, 404)
      assert.strictEqual((yield* raw(`/explorer/accouplements?mere=${SON}`)).status, 400)
      assert.strictEqual((yield* raw(`/explorer/accouplements?mere=${DAUGHTER}&sexe=Male`)).status, 400)
      assert.strictEqual((yield* raw(`/explorer/accouplements?mere=${DAUGHTER}&coefficient_max=2`)).status, 400)
    }))

  it.effect("a test mating: the foal's F over all generations and in the cut, the common ancestors, the route's refusals", () =>
    Effect.gen(function*() {
      const page = text((yield* raw(`/explorer/accouplements/essai?pere=${SON}&mere=${DAUGHTER}&generations=3`)).body)
      assert.include(page, "<h1>Accouplement : QUAPRICE BOIMARGOT × ÉCLAIR DU BOIS</h1>")
      assert.include(page, `href="/v1/accouplements?pere=${SON}&amp;mere=${DAUGHTER}&amp;generations=3"`)
      // Half-siblings by JAPPELOUP DE LUZE: (1/2)^3 over all generations and within 3.
      assert.include(page, "<dt>F du poulain, toutes générations connues</dt><dd>12,5\u00a0%")
      assert.include(page, "<dt>F du poulain sur 3 générations</dt><dd>12,5\u00a0%</dd>")
      assert.include(page, `<td><a href="/explorer/equides/${SIRE}">JAPPELOUP DE LUZE</a></td><td>2</td><td>2</td><td class="num">1</td><td class="num">12,5\u00a0%</td>`)
      assert.include(page, `<option value="3" selected>3 générations</option>`)
      assert.include(page, `href="/explorer/accouplements?mere=${DAUGHTER}"`)
      const unrelated = text((yield* raw(`/explorer/accouplements/essai?pere=${TROTTER}&mere=${DAUGHTER}`)).body)
      assert.include(unrelated, "Aucun ancêtre commun au père et à la mère dans la coupe")
      assert.include(unrelated, "<dt>F du poulain sur 8 générations</dt><dd>0\u00a0%</dd>")
      const absent = yield* raw(`/explorer/accouplements/essai?pere=${ABSENT}&mere=${DAUGHTER}`)
      assert.strictEqual(absent.status, 404)
      assert.include(text(absent.body), "Aucun équidé ne porte l&#39;identifiant donné pour pere dans le jeu de données servi.")
      assert.strictEqual((yield* raw(`/explorer/accouplements/essai?pere=${SON}&mere=${SON}`)).status, 400)
      assert.strictEqual((yield* raw(`/explorer/accouplements/essai?pere=${SON}&mere=${DAUGHTER}&generations=13`)).status, 400)
      assert.strictEqual((yield* raw(`/explorer/accouplements/essai?mere=${DAUGHTER}`)).status, 400)
    }))

  it.effect("the list takes `sexe` as French speakers write it, and ticks the box of the value it folds to", () =>
    Effect.gen(function*() {
      const accented = yield* raw("/explorer/equides?sexe=H%C3%94NGRE")
      assert.strictEqual(accented.status, 200)
      assert.include(text(accented.body), `href="/explorer/equides/${GELDING}"`)
      assert.include(text(accented.body), "<strong>1</strong> équidé correspond")
      assert.include(text(accented.body), "value=\"Hongre\" checked")
      assert.notInclude(text(accented.body), "value=\"Male\" checked")
    }))
})
