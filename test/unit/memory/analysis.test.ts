import { describe, expect, it } from "vitest";
import { analyzeText, languageMark, languagesOf } from "../../../src/core/memory/analysis";
import { analyze } from "../../../src/core/router/analyze";

/** Per language: a question, the content terms it must give, and function words it must not. */
const CASES: { lang: string; text: string; has: string[]; not: string[] }[] = [
  { lang: "en", text: "How do I use tags to organize my notes?", has: ["tag", "use"], not: ["how", "do", "my", "to", "i"] },
  { lang: "de", text: "Wie funktionieren die Vorlagen in meinem Tresor?", has: ["funktionieren", "vorlagen", "tresor"], not: ["wie", "die", "in", "meinem"] },
  { lang: "fr", text: "Comment utiliser les étiquettes dans l'application ?", has: ["etiquett", "applicat"], not: ["les", "dans", "l", "comment"] },
  { lang: "es", text: "¿Cómo uso las etiquetas para ordenar mis notas?", has: ["etiqueta", "ordenar"], not: ["las", "para", "mis", "como"] },
  { lang: "pt", text: "Como usar etiquetas para organizar minhas notas?", has: ["etiqueta", "organizar"], not: ["como", "para", "minhas"] },
  { lang: "it", text: "Come uso i tag per organizzare le mie note?", has: ["tag", "organizzar"], not: ["come", "per", "le", "mie", "i"] },
  { lang: "nl", text: "Hoe orden ik mijn notities met tags?", has: ["orden", "notiti", "tag"], not: ["hoe", "ik", "mijn", "met"] },
  { lang: "pl", text: "Jak używać tagów do porządkowania notatek?", has: ["uzywac", "tagow", "porzadkowania"], not: ["jak", "do"] },
  { lang: "ru", text: "Как упорядочить заметки с помощью тегов?", has: ["упорядочить", "заметки", "тегов"], not: ["как", "с"] },
  { lang: "uk", text: "Як упорядкувати нотатки в пам'яті?", has: ["упорядкувати", "нотатки", "памяті"], not: ["як", "в"] },
  { lang: "tr", text: "Notlarımı düzenlemek için etiketleri nasıl kullanırım?", has: ["notlarimi", "duzenlemek", "etiketleri"], not: ["icin", "nasil"] },
  { lang: "zh", text: "如何使用标签来整理笔记", has: ["标签", "整理", "笔记"], not: ["如何"] },
  { lang: "ja", text: "タグを使ってノートを整理する方法", has: ["タグ", "ノー", "整理"], not: ["って", "する"] },
  { lang: "ko", text: "태그를 사용해서 노트를 정리하는 방법", has: ["태그", "노트", "정리"], not: ["태그를"] },
];

describe("memory search analysis, per language", () => {
  for (const c of CASES) {
    it(`${c.lang}: keeps the content words and drops the function words`, () => {
      const terms = analyzeText(c.text);
      for (const t of c.has) expect(terms, t).toContain(t);
      for (const t of c.not) expect(terms, t).not.toContain(t);
    });
  }

  it("cuts Chinese, Japanese and Korean runs into the same bigrams in a note and in a question", () => {
    const note = analyzeText("用标签来整理笔记。在笔记中写 #项目 即可添加标签。");
    for (const t of analyzeText("标签")) expect(note).toContain(t);
    expect(analyzeText("タグを使ってノートを整理")).toEqual(expect.arrayContaining(["タグ", "ノー", "ート", "整理"]));
    // Hiragana pairs are grammar, not content.
    expect(analyzeText("ノートを整理する")).not.toContain("する");
  });

  it("segments Thai into words", () => {
    expect(analyzeText("วิธีใช้แท็ก")).toEqual(["วิธี", "ใช้", "แท็ก"]);
  });

  it("folds and stems the way the router does, so both read a word alike", () => {
    for (const word of ["Notes", "Überprüfe", "Tagging"]) {
      const routerTerm = analyze(word).terms.find((t) => !/^[#~=]/.test(t));
      expect(analyzeText(word)).toEqual([routerTerm]);
    }
  });

  it("drops one-letter words and hash-like tokens, keeps numbers", () => {
    expect(analyzeText("x 2024 a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4")).toEqual(["2024"]);
  });

  it("tells a text's language from its script or its function words", () => {
    expect(languagesOf("Wie funktionieren die Vorlagen in meinem Tresor")).toEqual(["de"]);
    expect(languagesOf("dove trovo la nota di oggi")).toEqual(["it"]);
    expect(languagesOf("Як упорядкувати нотатки")).toEqual(["uk"]);
    expect(languagesOf("Как упорядочить заметки")).toEqual(["ru"]);
    expect(languagesOf("タグを使って")).toEqual(["ja"]);
    expect(languagesOf("标签")).toEqual(["zh"]);
    expect(languagesOf("태그")).toEqual(["ko"]);
    expect(languagesOf("Obsidian")).toEqual([]);
    expect(analyzeText(languageMark("de"))).toEqual([languageMark("de")]);
  });

  it("tells none of the 14 for a note in another language: another script, or too few of a language's own function words", () => {
    // Romanian meets Spanish, French and Italian in "de", "la", "un", but hardly ever in their own words ("los", "les", "gli").
    const romanian =
      "Pentru a crea o explicație, adăugați un identificator de tip pe primul rând al unui citat. Identificatorul de tip determină aspectul și comportamentul explicației. Explicațiile pot fi pliate și pot conține alte explicații, la fel ca în exemplul de mai jos, iar titlul se poate schimba oricând.";
    const spanish =
      "Para crear un recuadro, agrega el identificador de tipo en la primera línea de una cita. El identificador determina la apariencia del recuadro y los estilos que tiene. Los recuadros se pueden plegar y pueden contener otros recuadros, como en el ejemplo de abajo, y el título se puede cambiar.";
    // Mostly Arabic letters: a few Latin function words do not make it French or Spanish.
    const arabic = "لإنشاء تنبيه، أضف المعرّف إلى السطر الأول من الاقتباس، حيث يحدد المعرّف نوع التنبيه ومظهره. يمكن طي التنبيهات وتضمين تنبيهات أخرى داخلها كما في المثال أدناه. انظر la note de Obsidian.";
    expect(languagesOf(romanian)).toEqual([]);
    expect(languagesOf(arabic)).toEqual([]);
    expect(languagesOf(spanish)).toEqual(["es"]);
    // A question is too short to tell by its own words: its function words decide, ties kept.
    expect(languagesOf("cómo creo un callout de advertencia")).toEqual(["es"]);
  });
});
