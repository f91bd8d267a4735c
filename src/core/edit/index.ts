/** Edit in place: proposals under a grammar that quotes only the region's own sentences, word-level changes, rebasing. */
export { splitUnits, MAX_UNIT_CHARS, type EditUnit } from "./units";
export { compileEditGrammar, MAX_REGION_CHARS, type EditGrammar, type EditGrammarOptions } from "./edit-grammar";
export { wordDiff, tokenize, type DiffHunk } from "./word-diff";
export { applyChanges, applyReply, changesBetween, editsProposal, parseEditReply, proposalFromReply, unitChanges, EditReplyError, type EditChange, type EditProposal, type EditReply, type EditTarget } from "./proposal";
export { partialReply } from "./partial-reply";
export { droppedSentence, rebaseChanges, textMapping, type PositionMapping, type RebaseResult } from "./rebase";
export { sectionAt, sectionByHeading, type NoteSection } from "./section";
export { editMessages, proposeEdit, type ProposeOptions, type ProposeResult } from "./propose";
export { RecentInstructions } from "./recent-instructions";
