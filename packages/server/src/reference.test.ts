/**
 * The interactive reference in a real browser (the system Chromium, headless): under the page's
 * own `Content-Security-Policy` it renders every operation of the document, nothing is blocked or
 * fetched from another origin, "Try it out" runs a request against the same server, and axe-core
 * finds no WCAG 2 A/AA violation on the page with an operation open and its answer shown.
 */
import { assert, describe, layer } from "@effect/vitest"
import { fromRecords, REFERENCE_PATH } from "@equides/domain"
import * as Effect from "effect/Effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium } from "playwright-core"
import { chromiumPath, LAUNCH_ARGS as ARGS } from "./testing/browser.ts"
import { FAMILY } from "./testing/family.ts"
import { call, serverUrl, testServer } from "./testing/server.ts"

const require = createRequire(import.meta.url)
const CHROMIUM = chromiumPath()

/** An accessibility finding of axe-core: impact, rule, the first nodes. */
type Finding = string

interface Visit {
  readonly accessibility: ReadonlyArray<Finding>
  readonly operations: number
  readonly violations: ReadonlyArray<string>
  readonly foreign: ReadonlyArray<string>
  readonly tryItStatus: string
  readonly tryItBody: string
}

/** Opens the reference, counts its operations, then tries `GET /v1/stats` from the page. */
const visit = async (executablePath: string, base: string): Promise<Visit> => {
  const profile = mkdtempSync(join(tmpdir(), "equides-reference-"))
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS })
  try {
    const page = context.pages()[0] ?? await context.newPage()
    const foreign: Array<string> = []
    page.on("request", (request) => {
      if (!request.url().startsWith(base) && !request.url().startsWith("data:")) foreign.push(request.url())
    })
    // Runs in the page (a string: this file is type-checked without the DOM library).
    await page.addInitScript(`globalThis.violations = [];
      document.addEventListener("securitypolicyviolation", (event) => globalThis.violations.push(event.violatedDirective + " " + event.blockedURI))`)
    await page.goto(`${base}${REFERENCE_PATH}`, { waitUntil: "load" })
    await page.locator(".opblock").first().waitFor({ timeout: 20_000 })
    const operations = await page.locator(".opblock").count()

    const stats = page.locator(".opblock-get", { has: page.locator(".opblock-summary-path", { hasText: /^\/v1\/stats$/ }) })
    await stats.locator(".opblock-summary").click()
    await stats.locator("button.try-out__btn").click()
    await stats.locator("button.execute").click()
    const status = stats.locator(".live-responses-table tbody .response-col_status").first()
    await status.waitFor({ timeout: 20_000 })
    const tryItStatus = (await status.textContent())?.trim() ?? ""
    const tryItBody = (await stats.locator(".live-responses-table tbody .response-col_description pre").first().textContent()) ?? ""
    const violations = await page.evaluate(() => (globalThis as unknown as { violations: Array<string> }).violations)
    // axe-core evaluated through the debugging protocol (the page's policy admits no injected script).
    await page.evaluate(readFileSync(require.resolve("axe-core/axe.min.js"), "utf8"))
    const accessibility = await page.evaluate(`axe.run(document, { runOnly: ["wcag2a", "wcag2aa"] })
      .then((r) => r.violations.map((v) => v.impact + " " + v.id + ": " + v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")))`) as Array<Finding>
    return { accessibility, operations, violations, foreign, tryItStatus, tryItBody }
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
}

describe.skipIf(CHROMIUM === undefined)("reference in Chromium", () => {
  layer(testServer(fromRecords(FAMILY)))("reference", (it) => {
    it.effect("renders every operation under its policy, tries a request on the same origin, passes axe (WCAG 2 A/AA)", () =>
      Effect.gen(function*() {
        const document = (yield* call("/openapi.json")).json as { paths: Record<string, Record<string, unknown>> }
        const expected = Object.values(document.paths).reduce((sum, item) => sum + Object.keys(item).length, 0)
        const base = yield* serverUrl
        const seen = yield* Effect.promise(() => visit(CHROMIUM!, base))
        assert.strictEqual(seen.operations, expected)
        assert.deepStrictEqual(seen.violations, [])
        assert.deepStrictEqual(seen.foreign, [])
        assert.strictEqual(seen.tryItStatus, "200")
        assert.include(seen.tryItBody, "\"total\"")
        assert.deepStrictEqual(seen.accessibility, [])
      }), { timeout: 120_000 })

    it.effect("serves the page with a policy that allows only its own origin, and refuses parameters", () =>
      Effect.gen(function*() {
        const page = yield* call(REFERENCE_PATH)
        assert.strictEqual(page.status, 200)
        assert.match(page.headers["content-security-policy"] ?? "", /^default-src 'self';/)
        assert.notInclude(page.headers["content-security-policy"] ?? "", "unsafe")
        assert.notInclude(page.text, "<style")
        assert.notMatch(page.text, /<script>/)
        const script = yield* call(`${REFERENCE_PATH}/swagger-ui-bundle.js`)
        assert.strictEqual(script.status, 200)
        assert.match(script.headers["content-type"] ?? "", /^text\/javascript/)
        assert.strictEqual((yield* call(`${REFERENCE_PATH}?x=1`)).status, 400)
      }))
  })
})
