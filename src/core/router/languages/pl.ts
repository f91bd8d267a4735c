/** Polish. */
import type { RouterLanguage } from "./types";

export const pl: RouterLanguage = {
  code: "pl",
  stop:
    "i a o u w we z ze na do od po za przy przez dla bez pod nad przed miedzy ku lub albo ale czy ze zeby jak jaki jaka jakie jakich co kto ktory ktora ktore " +
    "ja mnie mi mna ty ciebie ci cie on ona ono my nas nam wy was oni one sie moj moja moje mojej mojego moich moim twoj twoja nasz nasza jego jej ich " +
    "jest sa byl byla bylo jestem jestes mam masz ma mamy maja moge mozesz moze mozna chce chcialbym chcialabym prosze prosic " +
    "nie juz tez takze jeszcze tylko bardzo wszystko wszystkie cos tu tam to ten ta te tego tej tym teraz no dobrze gdzie kiedy dlaczego czemu ile",
  days: "dzis dzisiaj dzisiejszy dzisiejsza dzisiejszej dzisiejszym wczoraj wczorajszy wczorajsza wczorajszej jutro jutrzejszy przedwczoraj pojutrze",
  smallTalk: [
    "jestes (super|swietny|swietna|najlepszy|najlepsza|genialny|genialna|wspanialy|wspaniala)", "(dobra|swietna) robota",
    "czesc", "hej", "hejka", "siema", "siemka", "witam", "witaj", "dzien dobry", "dobry wieczor", "dobranoc", "elo", "halo",
    "dzieki", "dziekuje", "dziekuje bardzo", "wielkie dzieki", "dzieki wielkie", "serdecznie dziekuje",
    "jak sie masz", "co slychac", "jak leci", "co u ciebie", "jak tam", "wszystko ok",
    "kim jestes", "czym jestes", "co potrafisz", "co umiesz",
    "(opowiedz|powiedz) (mi )?(jakis |jakiś )?(kawal|dowcip|zart)", "znasz (jakis )?(kawal|dowcip)", "rozsmiesz mnie",
    "ok", "okej", "super", "swietnie", "dobra", "spoko", "na razie", "do (zobaczenia|jutra|widzenia|uslyszenia)", "pa", "papa", "milego dnia",
  ],
  chatWords: ["zart\\w*", "dowcip\\w*", "smieszn\\w*"],
  question: ["co", "kto", "kim", "jaki", "jaka", "jakie", "ktory", "ktora", "ktore", "jak", "kiedy", "gdzie", "dlaczego", "czemu", "ile", "wyjasnij", "czy"],
  vault: [
    "notat\\w*", "sejf\\w*", "vault", "plik\\w*", "folder\\w*", "katalog\\w*", "dziennik\\w*", "tag\\w*", "etykiet\\w*", "link\\w*", "odnosnik\\w*", "backlink\\w*", "moj\\w*", "nasz\\w*",
    "inbox", "zadani\\w*", "zadan", "to-do", "projekt\\w*", "stron\\w*", "zapis\\w*", "zapamietaj\\w*", "szukaj", "wyszukaj", "znajdz", "otworz", "przeczytaj", "wlasciwosc\\w*",
  ],
  change: [
    "zapisz\\w*", "zapisac", "napisz\\w*", "dopisz\\w*", "dodaj\\w*", "dodac", "utworz\\w*", "stworz\\w*", "zrob\\w*", "zaktualizuj\\w*", "zmien\\w*", "edytuj\\w*", "zapamietaj\\w*",
    "zanotuj\\w*", "przenies\\w*", "usun\\w*", "skasuj\\w*", "wyrzuc\\w*", "oznacz\\w*", "odhacz\\w*", "zastap\\w*", "popraw\\w*", "ustaw\\w*", "wpisz\\w*",
  ],
  stepStarts: ["potem", "nastepnie", "następnie", "a potem", "a nastepnie", "a następnie", "i", "oraz", "na koniec", "wreszcie", "ale", "bez", "najpierw", "zanim"],
  negation: ["nie", "nic", "niczego", "zadn\\w*", "żadn\\w*", "bez", "nigdy"],
  notNegation: ["nie zapomnij", "nie zapominaj"],
  answerOnly: ["tylko (mi )?powiedz", "po prostu (mi )?powiedz", "tylko do odczytu", "w odpowiedzi", "tylko odpowiedz", "nie ruszaj", "niczego nie ruszaj", "nie dotykaj", "tylko (poszukaj|przeczytaj|sprawdz|sprawdź|zobacz|wyszukaj)", "odpowiedz tylko"],
  look: ["przejrzyj", "zajrzyj", "sprawdz\\w*", "sprawdź\\w*", "zobacz", "obejrzyj"],
  sets: ["wszystki\\w* \\w+", "kazd\\w* \\w+", "ile", "lacznie", "razem", "suma", "sum[eyi]", "zsumuj\\w*", "sredni\\w*", "wiecej niz", "mniej niz", "co najmniej", "ktorych", "ktorego", "ktorej"],
  personal: ["moj\\w*", "nasz\\w*", "\\w+(?:lismy|lysmy)", "kod do drzwi", "\\w+(?:ilem|ilam|alem|alam|elem|elam|ylem|ylam)", "telefon\\w*", "e-?mail\\w*", "hasl\\w*", "wi-?fi", "urodzin\\w*", "kontakt\\w*", "wizyt\\w*", "iban"],
  recall: ["wol\\w*", "ulubion\\w*", "preferuj\\w*"],
  hints: {
    "vault:read": ["Pokaż zawartość Projekty/Plan.md", "Przeczytaj mi notatkę ze spotkania", "Otwórz plik [[Plan tygodnia]]", "Co jest napisane w tej notatce?", "Streść notatkę Pomysły.md"],
    "vault:write": ["Stwórz nową notatkę o nazwie Podróż.md", "Załóż plik w folderze Projekty", "Napisz nową notatkę z tym tekstem", "Nadpisz całą notatkę", "Nowa notatka"],
    "vault:append": ["Dodaj to zdanie na końcu notatki", "Dopisz linijkę do notatki", "Uzupełnij notatkę o ten punkt", "Wpisz to na dole Inbox.md", "Zanotuj to w pliku"],
    "vault:edit": ["Zamień „stare” na „nowe” w notatce", "Zmień tekst w notatce", "Popraw literówkę w Pomysły.md", "Zastąp to słowo innym", "Przeredaguj zdanie w notatce", "Edytuj linijkę w notatce"],
    "vault:list": ["Wypisz wszystkie notatki w folderze", "Jakie pliki są w folderze Projekty?", "Pokaż, co jest w folderze", "Ile mam notatek?", "Lista moich plików"],
    "vault:search": ["Czy mam coś w notatkach na ten temat?", "Wyszukaj to słowo w moich notatkach", "Znajdź notatki, w których jest mowa o tym temacie", "Gdzie o tym pisałem?", "Przeszukaj sejf pod kątem hasła", "Która notatka o tym wspomina?"],
    "vault:semantic_search": ["Znajdź notatki podobne do tego pomysłu", "Co myślałem na ten temat?", "Podobne notatki na ten temat"],
    "vault:move": ["Przenieś notatkę do folderu Archiwum", "Zmień nazwę pliku", "Nadaj notatce nową nazwę", "Przełóż notatkę do innego folderu", "Zarchiwizuj notatkę"],
    "vault:delete": ["Usuń notatkę", "Skasuj plik Szkic.md", "Wyrzuć notatkę do kosza", "Pozbądź się tej starej notatki", "Usunąć notatkę"],
    "note:active": ["Streść bieżącą notatkę", "O czym jest ta notatka?", "Notatka, która jest teraz otwarta", "Na co teraz patrzę?"],
    "note:selection": ["Wyjaśnij zaznaczony fragment", "Przeredaguj zaznaczenie", "Tekst, który zaznaczyłem", "To, co mam zaznaczone", "Skróć zaznaczony tekst"],
    "note:outline": ["Pokaż nagłówki notatki", "Jakie sekcje ma Projekty/Plan.md?", "Spis treści notatki", "Struktura notatki"],
    "tags:list": ["Jakie tagi są w moim sejfie?", "Wypisz wszystkie moje tagi", "Moje najczęściej używane tagi", "Pokaż moje etykiety"],
    "tags:notes": ["Notatki z tagiem #praca", "Które notatki mają tag #pomysł?", "Wszystko otagowane jako projekt", "Wszystkie notatki z #kuchnia"],
    "links:backlinks": ["Które notatki odsyłają do [[Start]]?", "Linki przychodzące do tej notatki", "Backlinki notatki", "Gdzie jest podlinkowana ta notatka?"],
    "links:outgoing": ["Jakie linki zawiera notatka?", "Do czego linkuje Start.md?", "Linki wychodzące z notatki", "Zepsute linki w notatce"],
    "frontmatter:get": ["Jaki jest status projektu we właściwościach?", "Pokaż frontmatter Projekty/Plan.md", "Metadane notatki", "Jakie właściwości ma notatka?", "Kiedy jest termin projektu?", "suma właściwości cena we wszystkich notatkach"],
    "frontmatter:set": ["Ustaw status notatki na gotowe", "Zmień właściwość priorytet", "Dodaj termin do właściwości", "Oznacz projekt jako zakończony", "Zaktualizuj frontmatter"],
    "daily:get": ["Co jest w mojej dzisiejszej notatce dziennej?", "Pokaż mój wczorajszy dziennik", "Co robiłem 2026-11-18?", "Otwórz notatkę z dzisiaj"],
    "daily:append": ["Zapisz w dzisiejszym dzienniku, że byłem na rowerze", "Dodaj to do dzisiejszej notatki dziennej", "Zanotuj w dzienniku, że spotkanie poszło dobrze", "Wpisz do dziennika"],
    "tasks:list": ["Jakie zadania mi zostały?", "Pokaż moją listę rzeczy do zrobienia", "Co jeszcze muszę zrobić?", "Niezrobione zadania", "Które zadania już skończyłem?"],
    "tasks:add": ["Nowe zadanie: umyć samochód", "Dodaj zadanie", "Utwórz nowe to-do", "Przypomnij mi, żebym zadzwonił do lekarza", "Wpisz to na moją listę zadań", "Muszę jeszcze kupić chleb"],
    "tasks:complete": ["Oznacz zadanie jako zrobione", "Zadanie skończone, odhacz je", "Skreśl to z listy zadań", "Zrobiłem to zadanie"],
    "clock:now": ["Która godzina?", "Jaki dziś dzień?", "Dzisiejsza data", "Który mamy tydzień?", "Ile jest teraz godzin?"],
    "memory:save": ["Zapamiętaj, że piję kawę bez cukru", "Nie zapomnij, że Anna ma urodziny w maju", "Zachowaj to na później", "Pamiętaj, że wolę jednostki metryczne"],
    "memory:recall": ["Co o mnie wiesz?", "Co o mnie pamiętasz?", "Pamiętasz, co mówiłem ci o Annie?", "Pamiętasz moje preferencje?", "Co ci opowiadałem?"],
    "web:fetch": ["Przeczytaj stronę https://example.com", "Co jest na tej stronie internetowej?", "Pobierz artykuł spod tego adresu", "Streść link"],
  },
};
