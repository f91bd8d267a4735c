import { describe, expect, it } from "vitest";
import { analyze, SIGNAL } from "../../../src/core/router/analyze";
import { fold } from "../../../src/core/router/fold";

const terms = (text: string) => analyze(text).terms;

describe("folding", () => {
  it("drops Latin and Cyrillic diacritics and maps letters without a decomposition", () => {
    expect(fold("Überprüfe")).toBe("uberprufe");
    expect(fold("notatkę Łódź")).toBe("notatke lodz");
    expect(fold("Straße")).toBe("strasse");
    expect(fold("Görevlerimı İşaretle")).toBe("gorevlerimi isaretle");
    expect(fold("Переименуй ЁЛКУ")).toBe("переименуи елку");
    // Kana keep their voicing marks: ド is not ト.
    expect(fold("ドキュメント")).toBe("ドキュメント");
  });
});

describe("words", () => {
  it("gives a word's stem and its five-letter truncation, so inflections meet", () => {
    expect(terms("notatkę")).toEqual(expect.arrayContaining(["~notat"]));
    expect(terms("notatki")).toEqual(expect.arrayContaining(["~notat"]));
    expect(terms("заметку")).toEqual(expect.arrayContaining(["~замет"]));
    expect(terms("Notizen")).toEqual(expect.arrayContaining(["~notiz"]));
    // English plurals meet through the stem.
    expect(terms("notes")).toContain(terms("note")[0]);
  });

  it("drops function words of every language and bare numbers", () => {
    expect(terms("the and of 42")).toEqual([]);
    expect(terms("der die das")).toEqual([]);
    expect(terms("и в на")).toEqual([]);
  });

  it("splits French and Italian elisions and English clitics, keeps apostrophes inside Ukrainian words", () => {
    expect(terms("l'article")).toEqual(terms("article"));
    expect(terms("dell'anno")).toEqual(terms("anno"));
    expect(terms("today's")).toContain(SIGNAL.today);
    expect(terms("пам'ять")).toEqual(terms("память"));
  });

  it("splits identifiers into words as tool names are split", () => {
    expect(terms("columnCount")).toEqual(expect.arrayContaining(["column", "count"]));
  });
});

describe("scripts without spaces", () => {
  it("gives Chinese character bigrams, and single Han characters except function characters", () => {
    const t = terms("删除这篇笔记");
    expect(t).toEqual(expect.arrayContaining(["删除", "笔记", "删", "除"]));
    expect(t).not.toContain("这");
  });

  it("skips bigrams across Japanese particles and pure-hiragana pairs", () => {
    const t = terms("ノートを削除して");
    expect(t).toEqual(expect.arrayContaining(["ノー", "ート", "削除"]));
    expect(t).not.toContain("トを");
    expect(t).not.toContain("して");
  });

  it("strips Korean particles and adds syllable bigrams", () => {
    expect(terms("노트를")).toEqual(expect.arrayContaining(["노트", "노트".slice(0, 2)]));
    expect(terms("노트를")[0]).toBe("노트");
  });
});

describe("language-independent signals", () => {
  const signals = (text: string) => [...analyze(text).signals].sort();

  it("reads paths, file names and [[links]] as a note, and keeps their words out", () => {
    expect(signals("open Projects/Kitchen Plan.md")).toContain(SIGNAL.note);
    expect(terms("Projekte/Umzug.md")).toEqual([SIGNAL.note]);
    // A question's first words ("what") make it a question even without a question mark.
    expect(signals("what links to [[Anna Müller]]")).toEqual([SIGNAL.ask, SIGNAL.note, SIGNAL.link].sort());
  });

  it("finds #tags, URLs, dates, times, quotes and today words in any language", () => {
    expect(signals("notes with #recipe")).toEqual([SIGNAL.tag]);
    expect(signals("lies https://example.org/a?b=1")).toEqual([SIGNAL.url]);
    expect(signals("am 2026-11-18 und 18.11.2026")).toEqual([SIGNAL.date]);
    expect(signals("11月18日の日記")).toEqual([SIGNAL.date]);
    expect(signals("dentist at 15:30")).toEqual([SIGNAL.time]);
    expect(signals("Füge „Milch kaufen“ hinzu")).toEqual([SIGNAL.quote]);
    expect(terms("Füge „Milch kaufen“ hinzu")).not.toContain("milch");
    for (const day of ["heute", "aujourd'hui", "hoy", "сегодня", "bugün", "今天的日记", "今日は", "오늘"]) expect(analyze(day).terms, day).toContain(SIGNAL.today);
  });

  it("marks 'this note' in several languages, and questions", () => {
    for (const q of ["summarize this note", "Fasse diese Notiz zusammen", "Résume cette note", "总结一下这篇笔记", "このノートを要約して"]) expect(signals(q), q).toContain(SIGNAL.thisNote);
    expect(signals("what time is it?")).toContain(SIGNAL.ask);
    expect(signals("remember that I like tea")).not.toContain(SIGNAL.ask);
  });
});
