/**
 * The PDF open in Obsidian's PDF view, and the page it shows. The view's file is public API; its page is not (the
 * embedded pdf.js viewer's `page`), so it is read guarded and falls back to page 1.
 */
import type { TFile, Workspace } from "obsidian";
import type { VaultPort } from "../../core/ports/vault";
import type { PdfTextPort } from "../../core/ports/pdf";
import { pdfExcerpt } from "../../core/pdf/pdf-excerpt";

interface PdfViewInternals {
  getViewType(): string;
  file?: TFile | null;
  viewer?: { child?: { pdfViewer?: { page?: unknown; pdfViewer?: { currentPageNumber?: unknown } } } };
}

export function activePdf(workspace: Workspace): { path: string; page: number } | null {
  const view = workspace.getMostRecentLeaf()?.view as unknown as PdfViewInternals | undefined;
  if (!view || typeof view.getViewType !== "function" || view.getViewType() !== "pdf") return null;
  const file = view.file;
  if (!file || file.extension.toLowerCase() !== "pdf") return null;
  const viewer = view.viewer?.child?.pdfViewer;
  const page = [viewer?.page, viewer?.pdfViewer?.currentPageNumber].find((p): p is number => typeof p === "number" && Number.isInteger(p) && p >= 1);
  return { path: file.path, page: page ?? 1 };
}

/** What "Ask about this PDF" needs: the PDF the view shows, and its pages from there on as an attachment. */
export function askAboutPdf(workspace: Workspace, vault: VaultPort, pdf: PdfTextPort): { active(): { path: string; page: number } | null; excerpt(path: string, page: number): Promise<{ label: string; text: string }> } {
  return { active: () => activePdf(workspace), excerpt: (path, page) => pdfExcerpt(vault, pdf, path, page) };
}
