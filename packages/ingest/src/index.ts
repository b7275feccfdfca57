export * from "./format/csvColumns.ts"
