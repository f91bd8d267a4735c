/**
 * Related words: a small, general-purpose map of words that people use for one thing ("dollars" for a currency,
 * "tunes" for music, "loud" for volume). Each group is a concept; a word of the group gives, besides its own
 * terms, the group's concept term, in messages and tool cards alike, so "How many Canadian dollars for 500 US
 * dollars?" meets a tool that "converts currency". General language only, never words of one catalog; a few
 * concepts list their everyday word in the other supported languages, for catalogs written in English.
 *
 * Encoded compactly (it ships in main.js): groups separated by "|", the first word of a group names it.
 */
import { fold } from "./fold";
import { stem } from "./stem";

/** Prefix of concept terms ("=" never occurs in a word term). */
export const CONCEPT = "=";

/** The groups, a group's words separated by spaces, groups by "|" (exported for the search index's analysis key). */
export const GROUPS = [
  "currency money dollar dollars usd eur euro euros gbp jpy yen cad aud inr rupee rupees yuan peso pesos franc francs cash forex",
  "weather forecast temperature rain raining snow snowing wind windy humidity precipitation sunny cloudy storm climate wetter meteo 天气 天気 날씨 погода погоду погоди pogoda hava",
  "music song songs tune tunes track tracks album albums playlist singer band listen listening melody musique musik musica muziek muzyka музыка музику музика müzik 音乐 音楽 음악",
  "movie movies film films cinema flick",
  "food eat eating meal meals dinner lunch breakfast pizza burger burgers sushi snack cuisine dish dishes",
  "restaurant restaurants diner eatery bistro cafe",
  "language languages english french german spanish portuguese italian dutch polish russian ukrainian turkish chinese japanese korean arabic hindi danish swedish norwegian finnish greek translate translation translator",
  "volume loud louder quiet quieter mute unmute sound",
  "leader king queen president ruler monarch emperor empress pharaoh sultan chancellor",
  "purchase buy buying bought order ordering",
  "execute run running command commands shell terminal cmd bash powershell cli",
  "concatenate concat combine combining join merge",
  "probability probabilities odds chance chances likelihood",
  "car cars vehicle vehicles sedan suv automobile",
  "hotel hotels accommodation lodging motel hostel inn",
  "flight flights airline airlines airfare plane",
  "lawyer lawyers attorney attorneys",
  "doctor doctors physician physicians",
  "image images picture pictures photo photos photograph",
  "email emails mail inbox",
  "web website websites webpage url urls http https webseite* internetseite* sitio sito сайт* 网页 网站 ウェブ 웹",
  "artwork artworks art sculpture sculptures painting paintings statue statues",
  "coordinate coordinates latitude longitude lat lon lng gps",
  "stock stocks shares ticker equity",
  "distance far miles kilometers km",
  "calculate calculation compute computing math arithmetic",
  "date dates calendar weekday week weeks datum wochentag woche kalenderwoche semaine semana settimana tydzień tygodni* недел* тижд* hafta 星期 週 주차 fecha 日期 星期 日付 曜日 날짜 요일",
  "year years annual yearly",
  "time clock hour hours uhr uhrzeit heure heures hora horas ora ore tijd uur laat godzin* время времени час часа годин* saat 时间 几点 時間 何時 시간",
  "unit units teaspoon teaspoons tablespoon tablespoons cup cups ounce ounces gram grams kilogram kilograms liter liters litre litres gallon gallons celsius fahrenheit kelvin",
  "find search searching look lookup locate seek suche suchen durchsuch* finde finden cherch* recherch* trouv* retrouv* fouill* busca buscar busque* encuentr* encontr* procur* acha achar cerca cercare cerchi trova trovare trovami zoek* vind vinden vindt szuka* szukaj wyszuk* znajd* przeszuk* найд* найти поищ* ищи искать поиск* знайд* шука* пошук* bul bulur bulun ara arar arama* araştır* 找 搜索 查找 探して 探す 検索 찾 검색",
  "delete remove erase trash discard lösch* entfern* supprim* effac* borra* borrar elimin* apag* exclu* cancell* verwijder* wis usuń usun* skasuj* удал* видал* sil silin* 删除 删掉 削除 消して 삭제 지워",
  "create make creat* erstell* anleg* neu neue neuen neues cree creer creez nouvel* nouveau crea crear creare nuev* cria criar nova novo nuov* maak maken aanmak* nieuw* utwórz* utworz* stwórz* stworz* nowa nowy nowe nową созда* новую новый новая новой новом новое новые створ* нову новий нової новій нове нові oluştur* yeni 新建 创建 作成 新規 作って 만들 새로",
  "add append attach hinzufüg* füg* ergänz* anhäng* dranhäng* ajout* rajout* añad* agreg* adicion* acrescent* aggiung* voeg toevoeg* dodaj* dopisz* добав* допиши дода* допиш* ekle* 添加 加上 加到 追加 추가 넣어",
  "edit change replace modify fix correct rewrite update set änder* ersetz* bearbeit* korrigier* modifi* chang* remplac* corrig* cambi* reemplaz* modific* mude mudar altera alterar altere substitu* corrij* sostitu* corregg* wijzig* verander* vervang* zmień* zmien* zamień* zamien* popraw* измен* замен* исправ* змін* замін* виправ* değiştir* düzelt* 修改 改成 改动 更改 替换 改为 変更 変え 置き換 直して 書き換 바꿔 바꾸 수정 변경 고쳐",
  "read lies lesen lese lis lire lisez ouvr* lee leer lea leel* abre abrir leia ler abra leggi leggil* leggere apri aprire lees lezen przeczytaj czytaj* otwórz* otworz* прочитай прочти читай открой прочитати відкрий oku okur 读 阅读 打开 読んで 読む 開いて 읽 열어",
  "move rename relocate verschieb* umbenenn* déplac* renomm* mueve muev* mover renombr* mova renome* sposta* rinomin* verplaats* hernoem* przenieś* przenies* перемест* переимен* перемісти* переймен* taşı* adlandır* 移动 重命名 移動 옮겨 이동",
  "task tasks todo todos chore aufgabe* tâche* tarea* tarefa* compit* attività taak taken zadani* zadań* задач* завдан* görev* yapılacak* 任务 待办 タスク やること 할일",
  "done complete completed finish finished erledigt* abhak* abgehakt fertig faite terminé* coch* hecho hecha terminad* completad* feito feita conclu* fatto fatta completat* spunta* gedaan klaar afgevink* afvink* zrobion* wykonan* odhacz* выполн* сделан* виконан* зроблен* tamamla* bitti bitir* 完成 做完 完了 終わ 완료 끝났",
  "remember memorize memory recall merk* erinner* gemerkt souvien* rappel* retien* recuerd* acuerd* lembr* ricord* onthoud* herinner* pamięt* zapamięt* запомн* помни* помнишь запам* пам'ята* hatırla* unutma 记住 记得 覚え 기억",
  "tag tags tagged tagging hashtag tagi tagów tagami tagach schlagwort* étiquette* etiqueta* etichett* label labels etykiet* тег* метк* мітк* etiket* 标签 タグ 태그",
  "heading headings outline section sections structure überschrift* gliederung* abschnitt* inhaltsverzeichnis titre* sommaire encabezado* esquema título* títulos estrutura titol* sezion* struttura kop koppen structuur nagłów* struktur* заголов* структур* başlık* 标题 大纲 目录 見出し 目次 構成 제목 목차 구조",
  "property properties metadata frontmatter field fields eigenschaft* metadat* propriét* métadonn* propiedad* propriedade* proprietà eigenschap* właściwoś* свойств* властивост* özellik* campo campos champ champs pole поле поля поле alan* status statut estado stato статус durum* 属性 プロパティ 속성 状态 ステータス 상태",
  "daily journal diary tagebuch* tagesnotiz* quotidien* diario diário dagboek* dagnotitie* dziennik* дневник* щоденник* günlük* 日记 日志 日記 デイリー 일기 데일리",
  "selection selected highlighted highlight markiert* ausgewählt* auswahl sélection* surlign* seleccion* resaltad* selecion* destacad* selezion* evidenzia* selectie geselecteerd* gemarkeerd* zaznacz* выделен* выделил* виділен* виділив* seçili seçti* seçim* 选中 选择 選択 선택",
  "link links backlink backlinks verlink* verweis* lien liens enlace* vincul* collegament* rimand* renvoi* apont* koppeling* odnośnik* ссылк* ссыла* посилан* bağlantı* 链接 リンク 링크",
  "about regarding concerning über sur concernant sobre acerca riguardo over omtrent temat про об щодо hakkında 关于 有关 について に関する 관한 대해",
  "mention mentions mentioned mentioning discuss discussed erwähn* mentionn* parl* menciona* mencion* habl* fala* falei menziona* noem* vermeld* wspomin* wspomn* упомина* упомян* згаду* згад* bahse* 提到 提及 言及 触れ 언급",
  "told said gesagt erzählt dije dicho contado disse contei detto raccontato gezegd verteld mówił* powiedział* говорил* сказал* рассказывал* казав* розповідав* söyle* 说过 告诉过 言った 話した 말했",
  "total sum sums summed add-up tally totals average averages summe gesamt* zusammenrechn* zusammenzahl* addier* additionn* somme totaux suma sumar sume sumen somar soma somma sommare totale optellen totaal zsumuj* sumę sumy сложи сумм* итог* суму суми сума topla* toplam* 合计 加起来 总数 总和 合計 合算 합산 합계 총액",
  "folder folders directory ordner* verzeichnis* dossier* carpeta* cartell* mappen katalog* folder* тека теки теці теку папк* klasör* 文件夹 フォルダ 폴더",
].join("|");

const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** Shortest prefix member. */
const MIN_PREFIX = 3;

function add(map: Map<string, string[]>, key: string, term: string): void {
  const list = map.get(key) ?? [];
  if (!list.includes(term)) list.push(term);
  map.set(key, list);
}

/**
 * Word groups written as GROUPS is ("a b c*|d e": words folded, "*" for a beginning, CJK members found inside a run),
 * indexed for lookup; each group's concept term is CONCEPT + its first word. Memory search indexes groups of its own
 * the same way (memory/concepts.ts).
 */
export class ConceptGroups {
  /** Stem (of a word of a group) → concept terms. */
  private readonly words = new Map<string, string[]>();
  /** Folded beginning (a member written "lösch*") → concept terms: inflected forms share it (löschen, lösche). */
  private readonly prefixes = new Map<string, string[]>();
  /** CJK members, found inside a run (no spaces between words). */
  private readonly cjk: [string, string][] = [];

  constructor(groups: string) {
    for (const group of groups.split("|")) {
      const words = group.split(" ");
      const term = CONCEPT + words[0];
      for (const word of words) {
        if (CJK.test(word)) this.cjk.push([word, term]);
        // Words reach analysis folded and with apostrophes joined ("пам'ять" → "память").
        else if (word.endsWith("*")) add(this.prefixes, fold(word.slice(0, -1)).replace(/'/g, ""), term);
        else add(this.words, stem(fold(word)), term);
      }
    }
  }

  /** The concept terms of one word (folded) with its stem; empty when it is in no group. */
  ofWord(word: string, wordStem: string): string[] {
    const exact = this.words.get(wordStem);
    let out: string[] | null = exact ? [...exact] : null;
    for (let n = MIN_PREFIX; n <= word.length; n++) {
      const hit = this.prefixes.get(word.slice(0, n));
      if (!hit) continue;
      out ??= [];
      for (const t of hit) if (!out.includes(t)) out.push(t);
    }
    return out ?? [];
  }

  /** The concept terms of the CJK members found inside a run. */
  inRun(run: string): string[] {
    const out: string[] = [];
    for (const [word, term] of this.cjk) if (run.includes(word) && !out.includes(term)) out.push(term);
    return out;
  }
}

const ROUTER_GROUPS = new ConceptGroups(GROUPS);

/** The concept terms of one word (folded) with its stem; empty when it is in no group. */
export function conceptsOf(word: string, wordStem: string): string[] {
  return ROUTER_GROUPS.ofWord(word, wordStem);
}

/** The concept terms of the CJK members found inside a run. */
export function conceptsInRun(run: string): string[] {
  return ROUTER_GROUPS.inRun(run);
}
