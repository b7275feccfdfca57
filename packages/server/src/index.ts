export { ApiLive, AppLive, HandlersLive, makeApp } from "./App.ts"
export { DEFAULT_SETTINGS, serverConfig, type ServerSettings, Settings, settingsLayer } from "./config.ts"
export { ServerLive } from "./server.ts"
export { Telemetry } from "./telemetry.ts"
