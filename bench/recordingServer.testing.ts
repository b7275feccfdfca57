/** A local node:http server for the bench's tests: it answers 200 with the path and remembers every path asked. */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface RecordingServer {
  readonly baseUrl: string
  /** Paths in the order received. */
  readonly paths: Array<string>
  readonly close: () => Promise<void>
}

export const recordingServer = async (
  answer: (request: IncomingMessage, response: ServerResponse) => void = (request, response) => response.end(request.url)
): Promise<RecordingServer> => {
  const paths: Array<string> = []
  const server = createServer((request, response) => {
    paths.push(request.url ?? "")
    answer(request, response)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
