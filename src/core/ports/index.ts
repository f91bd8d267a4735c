export * from "./engine";
export * from "./vault";
export * from "./user";
export * from "./vector-store";
export * from "./index-store";
