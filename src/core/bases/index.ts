/** Obsidian Bases headless: `.base` files read and checked, expressions evaluated, views queried over the vault. */
export { parseExpression, type Expr } from "./expression";
export { evaluate } from "./evaluate";
export type { Scope } from "./scope";
export { REFUSED, SUPPORTED } from "./functions";
export { describeBase, filterWords, parseBaseText, readBase, readFilter, type BaseSpec, type BaseView, type FilterNode, type SortKey } from "./base-file";
export type { YamlPort } from "../ports/yaml";
export { builtinSummary, loadRows, runQuery, type QueryOptions, type QueryResult, type QueryRow } from "./query";
export { BaseDate, BaseError, BaseFile, BaseLink, Duration, toJson, toText, type BaseRow, type Value } from "./values";
