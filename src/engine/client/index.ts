/** The engine client: what the plugin and the CLI use to talk to the engine host. */
export { EngineClient, type EngineClientOptions, type EngineState, type GeneratedReply, type RequestOptions } from "./engine-client";
export type { ChildProcessLike, HostLauncher } from "./launcher";
export { HostLog } from "./host-log";
export type { EngineEvent, ModelOptions, HostStatus } from "./host-protocol";
