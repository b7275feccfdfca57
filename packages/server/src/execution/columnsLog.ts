/**
 * The log of the per-code columns a query built on first use (`progenyColumns` of the domain): one
 * info line per build, in the thread that made it (the server's, or a query worker's, whose
 * console Node forwards to the process's).
 */
import { takeColumnsBuilds } from "@equides/domain/answers"
import { Effect } from "effect"

export const logColumnsBuilds: Effect.Effect<void> = Effect.suspend(() =>
  Effect.forEach(
    takeColumnsBuilds(),
    ({ code, entries, millis }) => Effect.logInfo(`Colonnes de l'indice ${code} construites en ${Math.round(millis)} ms (${entries} valeurs de produits)`),
    { discard: true }
  )
)
