/** The types of llama-server's saved slots that the engine's configuration and the engine host share (saved-slots.ts uses them). */

/** Where a server's slot files are kept track of (the host implements it over the folder llama-server writes to). */
export interface SlotStateStore {
  /** The file name llama-server saves a conversation's slot under, inside its slot-save folder. */
  fileName(conversationId: string): string;
  /** After a save: records what the file holds (its key) and keeps the folder in bound. */
  saved(conversationId: string, saved: { bytes: number; tokens: number }): Promise<void>;
  /** Before a restore: whether a usable state is saved; one made for another model (or damaged) is discarded, with a sentence thrown. */
  usable(conversationId: string): Promise<boolean>;
  /** After a restore: the state was just used. */
  restored(conversationId: string): Promise<void>;
  /** A state the server could not read back: discarded. */
  discard(conversationId: string): Promise<void>;
  /**
   * After a save: keeps the prompt that gave the slot its tokens (JSON of text and prompt parts, a reply by the token
   * ids it was sampled as), so the first prompt after a restore extends the restored tokens exactly. Optional.
   */
  savePrompt?(conversationId: string, json: string): Promise<void>;
  /** That prompt, when one is kept for the saved state (checked as the state is). */
  savedPrompt?(conversationId: string): Promise<string | undefined>;
}

/** What a server's model is, for the key of its saved slots. */
export interface SlotStateIdentity {
  /** The model file as the server names it (`/props` model_path). */
  modelPath: string;
  /** Tokens per slot. */
  contextSize: number;
  /** The server's build, since a state's layout may change between builds. */
  build: string;
}

/** The folder a managed llama-server saves slots to, as the engine's configuration carries it. */
export interface SlotStateFolder {
  /** The folder passed as `--slot-save-path`. */
  dir: string;
  /** Bound on the folder; least recently used states go first. Default 300 MB. */
  maxBytes?: number;
  /** Idle time after a generation before the slot is saved; default 1000 ms. */
  saveDelayMs?: number;
}

/** Makes the store for a folder and a server's model (the engine host's: state-folder.ts); null where it cannot. */
export type SlotStateStoreFactory = (folder: SlotStateFolder, identity: SlotStateIdentity) => SlotStateStore | null;
