/**
 * What a route family costs to execute, in quota units (issue 24, item 5): a request's units are
 * the larger of the bytes rule (design 3: max(1, ⌈estimated bytes / 16 KiB⌉)) and its route's
 * execution cost, 1 unit per `UNIT_CPU_MS` of CPU at full scale (4.45 M records). A route whose
 * cost grows with the data declares its figure on its definition (`executionCost(ms)`); the server
 * gathers them into one table (`admission/routes.ts`), and the description carries each as
 * `x-cout-execution` on its operation.
 *
 * The figures are estimates (see each route and docs/decisions.md): measured on the embedded
 * sample (30 000 records, medians of single in-process executions under a load average of
 * 14–16), the data-bound part scaled by the row count (×148), and checked against the full-scale
 * figures of docs/performance.md. The bench will measure them at full scale, per family.
 */
import * as Context from "effect/Context"
import { OpenApi } from "effect/http-api"

/** CPU time one quota unit pays for. */
export const UNIT_CPU_MS = 0.5

/** A route's execution cost, in milliseconds of CPU at full scale (0: not declared, the bytes rule alone). */
export const ExecutionCost = Context.Reference<number>("@equides/domain/ExecutionCost", { defaultValue: () => 0 })

/** Quota units of `ms` of CPU: ⌈ms / 0.5⌉, at least 1. */
export const executionUnits = (ms: number): number => Math.max(1, Math.ceil(ms / UNIT_CPU_MS))

/** A route's execution cost, declared on its definition (`annotateMerge`): read by the quota, shown in the description. */
export const executionCost = (ms: number) =>
  Context.merge(Context.make(ExecutionCost, ms), OpenApi.annotations({ override: { "x-cout-execution": executionUnits(ms) } }))

/** The rule, as the description and the documentation say it. */
export const QUOTA_RULE =
  "Quota par adresse : une requête coûte le plus grand de deux nombres d'unités, la taille estimée de sa réponse d'après son URI " +
  "(max(1, ⌈octets estimés / 16 Kio⌉)) et le coût d'exécution de sa route (x-cout-execution sur l'opération : 1 unité par 0,5 ms de calcul " +
  "à pleine échelle, 1 quand il n'est pas indiqué) ; une réponse 304 coûte 1 unité."
