export { ChangeJournal, DEFAULT_JOURNAL_MAX_AGE_MS, DEFAULT_JOURNAL_MAX_BYTES, type ChangeJournalOptions, type JournalTurn, type PendingChange } from "./change-journal";
export { JournalingVault } from "./journaling-vault";
export { applyUndo, planUndo, undoTurns, UndoConflict, type UndoConflictItem, type UndoPlan, type UndoResult, type UndoStep } from "./undo";
export { textHash, type ChangeCall, type ChangeOp, type JournalChange } from "./records";
export { describeTurn } from "./describe";
