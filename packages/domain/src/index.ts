export * from "./dataset/SourceRecord.ts"
export * from "./dataset/ids.ts"
export * from "./text/fold.ts"
