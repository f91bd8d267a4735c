export * from "./messages";
export * from "./envelope";
export * from "./tool";
export * from "./envelope-schema";
export * from "./registry";
