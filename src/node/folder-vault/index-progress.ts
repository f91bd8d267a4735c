/** Index progress as one updating stderr line (a new line per phase when stderr is not a terminal). */
import type { IndexProgress } from "../../core/memory/indexer";

export function progressPrinter(stream: NodeJS.WriteStream = process.stderr): { progress: (p: IndexProgress) => void; done: () => void } {
  let last = 0;
  let lastPhase = "";
  let open = false;
  return {
    progress(p) {
      const now = Date.now();
      const final = p.done >= p.total;
      if (p.phase === lastPhase && (p.phase === "save" || (!final && now - last < 250))) return;
      last = now;
      const eta = p.etaMs === null ? "" : `, about ${Math.ceil(p.etaMs / 1000)} s left`;
      const text = p.phase === "save" ? "saving the index" : `${p.phase === "scan" ? "reading notes" : "embedding chunks"} ${p.done}/${p.total}${eta}`;
      if (stream.isTTY) {
        stream.write(`\r\x1b[2K${text}`);
        open = true;
      } else if (p.phase !== lastPhase || final || p.phase === "embed") stream.write(`${text}\n`);
      lastPhase = p.phase;
    },
    done() {
      if (open) stream.write("\n");
      open = false;
    },
  };
}
