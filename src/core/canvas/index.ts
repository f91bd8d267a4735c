/** JSON Canvas 1.0: validation, layout without overlaps, edits, and text renderings. Pure: imports nothing outer. */
export * from "./types";
export { canvasProblems, isCanvasColor, parseCanvas, serializeCanvas } from "./validate";
export { overlappingPairs, membersOf, groupOf } from "./layout";
export { canvasText, describeCanvas, type TitleOf } from "./text";
