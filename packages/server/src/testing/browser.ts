/**
 * A real browser for tests: the system Chromium driven by `playwright-core` (which downloads no
 * browser), a test server over the embedded sample on port 0, pages opened at a given width with
 * their console errors collected, and `axe-core` run inside them.
 *
 * Chromium is launched headless with everything that would reach the network off (on a closed
 * network it otherwise waits on those requests); `launch` gives it a fresh temporary profile each
 * time (Playwright refuses `--user-data-dir` there and makes one itself).
 *
 * Use: `const chromium = chromiumPath()` (undefined: skip, see `programs.ts`), then
 * `layer(browserTestLayer(chromium))("…", (it) => …)` and `openPage`, `axeViolations`,
 * `horizontalOverflow`, `screenshot` in the tests.
 */
import { SAMPLE_FILE } from "@equides/ingest"
import { datasetLayerFromFile } from "@equides/ingest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Scope from "effect/Scope"
import type { HttpServer } from "effect/http"
import { mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { serverUrl, testServer } from "../testing/server.ts"
import { requiredProgram } from "./programs.ts"

/** The system Chromium, or undefined when absent (tests skip; under CI=true this throws). */
export const chromiumPath = (): string | undefined => requiredProgram("chromium", "chromium", ["/usr/bin/chromium"])

/** Chromium's switches on this machine: without the network features, its connections hang on the closed network. */
export const LAUNCH_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync"
]

export class Chromium extends Context.Service<Chromium, Browser>()("@equides/server/testing/Chromium") {
  static readonly layer = (executablePath: string): Layer.Layer<Chromium> =>
    Layer.effect(
      Chromium,
      Effect.acquireRelease(
        Effect.promise(() => chromium.launch({ executablePath, headless: true, args: LAUNCH_ARGS, timeout: 30_000 })),
        (browser) => Effect.promise(() => browser.close())
      )
    )
}

/** Chromium and the application over the embedded sample (the data `npm start` serves). */
export const browserTestLayer = (executablePath: string) =>
  Layer.merge(testServer(datasetLayerFromFile(SAMPLE_FILE)), Chromium.layer(executablePath))

export interface Viewport {
  readonly width: number
  readonly height: number
}

export const DESKTOP: Viewport = { width: 1280, height: 900 }
export const PHONE: Viewport = { width: 390, height: 844 }

/**
 * Pixels per CSS pixel. Half: screenshots are half the viewport's size, small enough for the
 * documentation; layout (CSS pixels), and so every assertion, does not depend on it.
 */
const SCREENSHOT_SCALE = 0.5

export interface OpenedPage {
  readonly page: Page
  /** Console errors, uncaught exceptions and failed requests seen so far (aborted fetches aside). */
  readonly errors: Array<string>
}

/**
 * A page of the test server opened at `path` (a fresh browser context: no shared cache or storage),
 * closed with the scope. Reduced motion is asked for, as a user who set it would.
 */
export const openPage = (
  path: string,
  viewport: Viewport = DESKTOP
): Effect.Effect<OpenedPage, never, Chromium | HttpServer.HttpServer | Scope.Scope> =>
  Effect.gen(function*() {
    const browser = yield* Chromium
    const base = yield* serverUrl
    const context = yield* Effect.acquireRelease(
      Effect.promise(() => browser.newContext({ viewport, deviceScaleFactor: SCREENSHOT_SCALE, reducedMotion: "reduce", locale: "fr-FR", baseURL: base })),
      (context) => Effect.promise(() => context.close())
    )
    const page = yield* Effect.promise(() => context.newPage())
    const errors: Array<string> = []
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`console: ${message.text()} (${page.url()})`)
    })
    page.on("pageerror", (error) => errors.push(`exception: ${error.message} (${page.url()})`))
    page.on("requestfailed", (request) => {
      const failure = request.failure()?.errorText ?? ""
      // The search box aborts the previous suggestion request on purpose.
      if (!failure.includes("ERR_ABORTED")) errors.push(`request failed: ${request.url()} ${failure}`)
    })
    yield* Effect.promise(() => page.goto(path, { waitUntil: "load" }))
    return { page, errors }
  })

/** A playwright call as an effect (a failure is a test failure, with playwright's message). */
export const step = <A>(run: () => Promise<A>): Effect.Effect<A> => Effect.promise(run)

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8")

export interface Violation {
  readonly id: string
  readonly impact: string
  readonly help: string
  readonly targets: ReadonlyArray<string>
}

/**
 * The page's accessibility violations of the given impacts, by axe-core (WCAG 2.x A and AA rules
 * and best practices). Injected through the DevTools protocol, which the page's CSP does not govern.
 */
export const axeViolations = (page: Page, impacts: ReadonlyArray<string> = ["serious", "critical"]): Effect.Effect<ReadonlyArray<Violation>> =>
  step(async () => {
    await page.evaluate(AXE_SOURCE)
    const found = await page.evaluate(async () => {
      const axe = (globalThis as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: Array<unknown> }> }> }> } }).axe
      const result = await axe.run()
      return result.violations.map((v) => ({ id: v.id, impact: v.impact ?? "", help: v.help, targets: v.nodes.map((n) => n.target.join(" ")) }))
    })
    return found.filter((v) => impacts.includes(v.impact))
  })

/** How many CSS pixels the document is wider than the viewport (0: no horizontal scrolling). */
export const horizontalOverflow = (page: Page): Effect.Effect<number> =>
  step(async () => Number(await page.evaluate("Math.max(0, document.documentElement.scrollWidth - window.innerWidth)")))

/** Where screenshots go: ignored by git (`.gitignore`), kept by CI as an artefact if it wants. */
export const SCREENSHOT_DIR = join(import.meta.dirname, "../../../../test-output/screenshots")

/** The viewport as a JPEG (small enough to copy into the documentation), at `SCREENSHOT_DIR/<name>.jpg`. */
export const screenshot = (page: Page, name: string): Effect.Effect<string> =>
  step(async () => {
    mkdirSync(SCREENSHOT_DIR, { recursive: true })
    const path = join(SCREENSHOT_DIR, `${name}.jpg`)
    await page.screenshot({ path, type: "jpeg", quality: 75 })
    return path
  })
