/**
 * Concept terms for memory search: a question and a note that name one thing in other words ("tags" and "Labels",
 * "which notes link to this note" and "Backlinks", "today" and "Daily notes") share a concept term ("=tag",
 * "=backlink", "=daily"). The text index stores a note's concepts, those of its name, aliases and tags, in a field of
 * its own, weighed a little under a word of the title (text-index.ts): a shared concept is a weaker sign than a
 * shared word.
 *
 * - The router's related-word groups (router/related.ts) give most of them, in its 14 languages.
 * - A few groups of Obsidian's own vocabulary that the router has no use for are added here: backlinks, devices,
 *   sync, canvas, templates, callouts.
 * - Words for today, yesterday and tomorrow (the router's day words) stand for the daily note.
 * - A link and "current" in one text ask about the notes that link to the current note, and a link "back" ("Enlace
 *   de retorno", "Linki zwrotne") is one: backlinks.
 *
 * Groups are written as in related.ts: words folded, "*" for a beginning, CJK members found inside a run.
 */
import { fold } from "../router/fold";
import { stem } from "../router/stem";
import { wordSet } from "../router/languages/words";
import { CONCEPT, ConceptGroups, conceptsInRun, conceptsOf, GROUPS as RELATED_GROUPS } from "../router/related";

const GROUPS = [
  "backlink backlinks backlinked ruckverweis* ruckverlink* retrolien* retroenlace* retrolink* terugverwijz* バックリンク 反向链接 백링크",
  "back retorno zwrotn* обратн* зворотн* geri",
  "link link* enlaz* colleg* посила* baglant* baglan*",
  "daily dagelijks* taglich* giornalier* diari* codzienn* ежедневн* щоденн* gunluk*",
  "device devices phone phones smartphone* mobile computer computers laptop* desktop* tablet* gerat* handy telefon* ordinateur* appareil* portable dispositiv* movil* celular* computador* apparat* apparaten toestel* urzadzen* komputer* устройств* телефон* компьютер* пристр* компютер* cihaz* bilgisayar* 设备 手机 电脑 デバイス 端末 スマホ 기기 휴대폰 컴퓨터",
  "sync synced syncing synchron* sincron* synchroniz* synchronis* синхрон* senkron* 同步 同期 동기화",
  "canvas canvases leinwand* toile* lienzo* doek tela tele plotn* холст* полотн* tuval* 画布 白板 キャンバス 캔버스",
  "template templates vorlage* modele* plantilla* modell* sjabloon* sjablonen szablon* шаблон* sablon* 模板 テンプレート 템플릿",
  "callout callouts hinweisbox* infobox* encadre* destacad* richiam* bijschrift* objasnien* выноск* виноск* belirtme* 标注 コールアウト 콜아웃",
  "current currently aktuell* actuel* actual* atual* corrent* attual* huidig* biezac* obecn* текущ* поточн* gecerli mevcut 当前 現在 현재",
].join("|");

/** The concepts a link and "current" (or "back") make together. */
const LINK = CONCEPT + "link";
const BACK = CONCEPT + "back";
const CURRENT = CONCEPT + "current";
const BACKLINK = CONCEPT + "backlink";
const DAILY = CONCEPT + "daily";
/**
 * Concepts left out: "current" and "back" only make backlinks; the router's actions (create, find, edit, read…) say
 * what a question asks to do, not what it is about, and would pair "create a daily note" with "Create a vault".
 */
const UNSAID = new Set(["current", "back", "create", "find", "delete", "add", "edit", "read", "move", "done", "remember", "mention", "told", "about", "execute"].map((c) => CONCEPT + c));

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}ー\p{Script=Hangul}]+$/u;
const WORD_RE = /[\p{L}\p{N}\p{M}]+(?:'[\p{L}\p{N}\p{M}]+)*/gu;
/**
 * The router's day words ("today", "aujourd'hui", "今天"…), read from the language tables (router/languages/words.ts)
 * rather than router/languages/index.ts, whose fifteen patterns a search has no use for (about 0.15 s of CPU at start).
 */
const DAY_WORDS: ReadonlySet<string> = wordSet((l) => l.days);
/** Day words written in Han, kana or Hangul: found inside a run, which has no spaces. */
const CJK_DAYS = [...DAY_WORDS].filter((d) => CJK.test(d));
/** Obsidian's own vocabulary, looked up as the router's groups are. */
const OWN = new ConceptGroups(GROUPS);

/** The concept terms of a text, once each, in the order found ("=tag", "=daily"…); empty when it names none. */
export function conceptTerms(text: string): string[] {
  const out = new Set<string>();
  const folded = fold(text);
  WORD_RE.lastIndex = 0;
  for (let m = WORD_RE.exec(folded); m !== null; m = WORD_RE.exec(folded)) {
    // Ukrainian writes an apostrophe inside words ("комп'ютер"); elsewhere an elided article comes first ("l'article").
    const parts = m[0].split("'");
    const word = /[\u0400-\u04FF]/u.test(m[0]) ? parts.join("") : parts[parts.length - 1];
    if (DAY_WORDS.has(word) || DAY_WORDS.has(parts.join(""))) out.add(DAILY);
    if (CJK.test(word)) {
      for (const t of [...conceptsInRun(word), ...OWN.inRun(word)]) out.add(t);
      if (CJK_DAYS.some((d) => word.includes(d))) out.add(DAILY);
      if (CJK_RUN.test(word)) continue;
    }
    const wordStem = stem(word);
    for (const t of [...conceptsOf(word, wordStem), ...OWN.ofWord(word, wordStem)]) out.add(t);
  }
  if (out.has(LINK) && (out.has(CURRENT) || out.has(BACK))) out.add(BACKLINK);
  // A backlink is a link: "Backlinks" also answers a question about links.
  if (out.has(BACKLINK)) out.add(LINK);
  return [...out].filter((t) => !UNSAID.has(t));
}

/** What the concepts are made of, for the text index's analysis key: when it changes, notes are indexed again. */
export const CONCEPT_LISTS = [RELATED_GROUPS, GROUPS, [...UNSAID].sort().join(" "), [...DAY_WORDS].sort().join(" ")].join("\n");

/** Whether a term is a concept term (not a word of the note: left out of the terms a snippet looks for). */
export function isConceptTerm(term: string): boolean {
  return term.startsWith(CONCEPT);
}
