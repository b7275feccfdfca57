export { ApiLive, AppLive, HandlersLive } from "./App.ts"
export { type ServerConfig, serverConfig } from "./config.ts"
export { ServerLive } from "./server.ts"
