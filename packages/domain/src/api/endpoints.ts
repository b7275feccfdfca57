/** The endpoints of an `HttpApi` value in its order (groups as added, then their endpoints): what the derived route tables read. */
import { HttpApi, type HttpApiEndpoint, type HttpApiGroup } from "effect/http-api"

export const endpointsOf = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<HttpApiEndpoint.Top> => {
  const endpoints: Array<HttpApiEndpoint.Top> = []
  HttpApi.reflect(api, { onGroup: () => {}, onEndpoint: ({ endpoint }) => void endpoints.push(endpoint) })
  return endpoints
}
