export * from "./messages";
export * from "./envelope";
export * from "./tool";
export * from "./registry";
