/**
 * A start that fails says why in one line an operator can act on (`le port 8080 est déjà utilisé
 * sur 0.0.0.0`, `HOST exemple.invalid ne se résout pas`, `fichier:ligne: raison`, the variable of
 * an invalid setting), then the process exits 1. The whole cause, stack traces included, is logged
 * only with `LOG_LEVEL=debug`.
 *
 * The addresses are tried before the data is loaded (`checkListenable`): a port already taken
 * fails the start in a second instead of after the load. They are not kept open meanwhile (the
 * spec: nothing listens before the data is loaded), so the real listen can still fail, and gets
 * the same line.
 */
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { createServer } from "node:net"

/** A listener that cannot be opened, said in one line. */
export class ListenError extends Data.TaggedError("ListenError")<{ readonly message: string }> {}

interface SystemError {
  readonly code?: unknown
  readonly hostname?: unknown
  readonly address?: unknown
  readonly port?: unknown
  readonly message?: unknown
}

/** The line for a Node error from `listen` on `host:port`, opened for `variable` (`PORT`, `METRICS_PORT`). */
export const listenFailure = (error: SystemError, variable: string, host: string, port: number): string => {
  switch (error.code) {
    case "EADDRINUSE":
      return `le port ${port} est déjà utilisé sur ${host} (${variable})`
    case "EACCES":
      return `le port ${port} n'est pas permis à ce processus sur ${host} (${variable})`
    case "EADDRNOTAVAIL":
      return `l'adresse ${host} n'appartient pas à cette machine (HOST ou METRICS_HOST)`
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
      return `HOST ${host} ne se résout pas (${String(error.code)})`
    default:
      return `${variable} ${host}:${port} ne peut pas être ouvert : ${String(error.message ?? error.code)}`
  }
}

/**
 * Opens and closes a listener on `host:port`: fails with the line saying why it cannot be opened.
 * Port 0 (any free port) is not tried.
 */
export const checkListenable = (host: string, port: number, variable: string): Effect.Effect<void, ListenError> =>
  port === 0 ? Effect.void : Effect.callback<void, ListenError>((resume) => {
    const probe = createServer()
    probe.once("error", (error) => resume(Effect.fail(new ListenError({ message: listenFailure(error, variable, host, port) }))))
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resume(Effect.void)))
  })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

const firstLine = (text: string): string => text.split("\n")[0]!.trim()

/** What a failure says, in one line. */
export const failureLine = (error: unknown, listening: { readonly host: string; readonly port: number }): string => {
  if (!isRecord(error)) return firstLine(String(error))
  switch (error["_tag"]) {
    case "ListenError":
    case "SourceError":
      return String(error["message"])
    case "ServeError": {
      // The public listener: the platform wraps Node's error.
      const cause = error["cause"]
      return isRecord(cause) ? listenFailure(cause, "PORT", listening.host, listening.port) : "le port public ne peut pas être ouvert"
    }
    case "ConfigError": {
      // `SchemaError(VARIABLE : what is expected (received "…")\n at [...])`: the message of the check.
      const text = firstLine(String(error["message"]))
      return text.replace(/^SchemaError\((.*)$/, "$1")
    }
  }
  return firstLine(String(error["message"] ?? error))
}

/** The failure of a start, as the one line logged (everything is logged at debug level). */
export const reportStartFailure = (
  cause: Cause.Cause<unknown>,
  debug: boolean,
  listening: { readonly host: string; readonly port: number }
): Effect.Effect<void> =>
  debug
    ? Effect.logError("Démarrage impossible", cause)
    : Effect.logError(`Démarrage impossible : ${failureLine(Cause.squash(cause), listening)}`)
