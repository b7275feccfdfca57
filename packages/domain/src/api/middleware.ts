/**
 * Middleware declared by the API: what each adds to the routes' possible answers. The definitions
 * live here so that the OpenAPI document and the typed client know those answers; their
 * implementations live in the server (`packages/server/src/middleware/`).
 */
import { HttpApiMiddleware } from "effect/http-api"
import { ParametreInvalide, ServiceSurcharge, TropDeRequetes } from "./problems.ts"

/**
 * Every route: a request whose parameters fail decoding (unknown parameter, non-integer, out of
 * bounds, value not in a closed list, missing `q`) is a 400 `#erreur-parametre-invalide`
 * naming the parameter.
 */
export class Validation extends HttpApiMiddleware.Service<Validation>()("@equides/domain/api/Validation", {
  error: ParametreInvalide
}) {}

/** Every route: the caller's quota may be exhausted (429, `Retry-After`). */
export class Quota extends HttpApiMiddleware.Service<Quota>()("@equides/domain/api/Quota", {
  error: TropDeRequetes
}) {}

/**
 * Every route but the probes (whose 503 body is Sante): no data loaded, capacity reached or
 * deadline passed give a 503 problem with `Retry-After`.
 */
export class Disponibilite extends HttpApiMiddleware.Service<Disponibilite>()("@equides/domain/api/Disponibilite", {
  error: ServiceSurcharge
}) {}
