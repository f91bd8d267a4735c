/** German. */
import type { RouterLanguage } from "./types";

export const de: RouterLanguage = {
  code: "de",
  stop:
    "der die das den dem des ein eine einen einem einer eines und oder aber wenn dann als auch noch schon mal doch ja nein nicht kein keine " +
    "ich mich mir du dich dir er sie es wir uns ihr euch ihnen mein meine meinen meinem meiner meines dein deine deinen deinem deiner sein seine " +
    "ist sind war waren bin bist sein hat habe hast haben hatte wird werden wurde kann kannst konnen konntest konntest koennte mochte mochtest " +
    "bitte mal gerade eben jetzt so da dort hier wo was wer wie wann warum welche welcher welches welchen im in am an auf aus bei mit nach von vom " +
    "dies diese dieser dieses diesen diesem jene jener zu zum zur fur uber unter vor hinter neben zwischen durch gegen ohne um bis ob dass weil denn etwas alles alle viel sehr nur gern gerne",
  days: "heute heutige heutigen heutiger heutiges gestern gestrige gestrigen morgen morgige morgigen vorgestern ubermorgen",
  smallTalk: [
    "du bist (echt |wirklich |so |einfach )?(super|toll|klasse|genial|spitze|der beste|die beste|ein schatz)", "(gut|super|toll) gemacht",
    "hallo", "hi", "hey", "huhu", "servus", "moin", "moin moin", "gruss dich", "gruss gott", "gruezi", "guten (morgen|tag|abend)", "gute nacht", "n abend",
    "danke", "dankeschon", "danke schon", "vielen dank", "besten dank", "merci",
    "wie geht('?s| es)", "wie lauft('?s| es)", "alles (klar|gut)", "was geht",
    "wer bist du", "was bist du", "was kannst du",
    "erzahl (mir )?(mal )?(einen|nen|n|nochmal einen) witz", "kennst du (einen|nen) witz", "sag (mal )?was lustiges", "mach (mal )?(einen|nen) witz",
    "ok", "okay", "super", "prima", "klasse", "toll", "cool", "tschuss", "ciao", "bis (bald|morgen|spater|dann)", "auf wiedersehen", "schones wochenende", "schonen (tag|abend)",
  ],
  chatWords: ["witz\\w*", "lustig\\w*"],
  question: ["was", "wer", "wem", "wen", "wie", "wann", "wo", "woher", "wohin", "warum", "wieso", "weshalb", "welche[rsmn]?", "erklar", "erklare", "weisst du", "ist", "sind", "gibt es"],
  vault: [
    "notiz\\w*", "vault", "tresor", "datei\\w*", "ordner\\w*", "tagebuch\\w*", "journal\\w*", "tagesnotiz\\w*", "tags?", "schlagwort\\w*", "link\\w*", "backlinks?", "verlinkt\\w*", "verweis\\w*",
    "mein\\w*", "unser\\w*", "inbox", "aufgabe\\w*", "to-dos?", "projekt\\w*", "seite\\w*", "frontmatter", "eigenschaft\\w*", "merk\\w*", "speicher\\w*", "such\\w*", "offne\\w*", "lies",
  ],
  change: [
    "speicher\\w*", "schreib\\w*", "fug\\w*", "hinzu\\w*", "erganz\\w*", "erstell\\w*", "leg\\w* an", "anlegen", "mach\\w*", "aktualisier\\w*", "ander\\w*", "bearbeit\\w*", "merk\\w*",
    "notier\\w*", "trag\\w* ein", "eintragen", "setz\\w*", "benenn\\w*", "verschieb\\w*", "losch\\w*", "entfern\\w*", "markier\\w*", "hak", "hake", "hakt", "abhaken", "abgehakt", "ersetz\\w*", "korrigier\\w*", "hang", "hange", "hangt", "anhangen", "dranhangen",
  ],
  stepStarts: ["dann", "danach", "anschliessend", "anschließend", "und dann", "und", "ausserdem", "außerdem", "zuletzt", "schliesslich", "schließlich", "aber", "sondern", "ohne", "zuerst", "bevor", "nachdem", "sowie"],
  negation: ["nicht", "nichts", "kein\\w*", "niemals", "nie", "ohne"],
  notNegation: ["vergiss nicht", "nicht vergessen"],
  answerOnly: ["sag (es )?mir (nur|bloss|bloß|einfach)", "nur (sagen|anzeigen|antworten)", "schreibgeschutzt", "schreibgeschützt", "in (deiner|der) antwort", "nichts anfassen", "fass \\w+ nicht an", "fass nichts an", "lass \\w+( \\w+)? (in ruhe|unverandert|unverändert|so|wie \\w+ (ist|sind))", "unverandert", "unverändert", "nur (lesen|ansehen|anschauen|nachsehen|nachschauen|suchen)", "antworte nur", "nur mit \\w+ antworten"],
  look: ["schau\\w*", "sieh \\w+ an", "ansehen", "anschauen", "durchgehen", "geh \\w+( \\w+)? durch", "prufe", "prüfe", "uberprufe", "überprüfe"],
  sets: ["alle[nmr]? \\w+", "jede[nmrs]? \\w+", "samtliche\\w* \\w+", "wie viele", "wie viel", "insgesamt", "gesamt\\w*", "summe", "durchschnitt\\w*", "mehr als", "weniger als", "mindestens", "hochstens", "alter als", "deren", "dessen"],
  personal: ["mein\\w*", "unser\\w*", "wir (?:haben|hatten) (?:\\w+ ){0,4}ge\\w+", "(?:ich|wir) (?:\\w+ ){0,4}\\w+ (?:habe|hab|haben|hatte|hatten)", "tur-?code", "zugangscode", "alarmcode", "habe ich", "hab ich", "hatte ich", "haben wir", "hatten wir", "ich (?:habe|hab|hatte) (?:\\w+ ){0,4}ge\\w+", "telefon\\w*", "handynummer", "e-?mail-?adresse", "anschrift", "passwort", "kennwort", "pin", "wlan", "wi-?fi", "geburtstag", "ansprechpartner\\w*", "termin\\w*", "kontonummer", "iban"],
  recall: ["bevorzug\\w*", "lieblings\\w*", "mag ich"],
  hints: {
    "base:query": ["Wie viele Projekte sind aktiv?", "Summiere die Kosten aller aktiven Projekte von Priya", "Wie hoch ist die durchschnittliche Bewertung meiner Bücher?", "Wie viele Stunden insgesamt über alle Projekte?"],
    "base:read": ["Was zeigt die Base Projekte.base?", "Erkläre die Filter dieser Base"],
    "base:create": ["Erstelle eine Base, die meine Bücher als Tabelle zeigt", "Leg eine .base-Datei der aktiven Projekte an, sortiert nach Fälligkeit"],
    "base:edit": ["Füge der Base eine Ansicht hinzu", "Ändere den Filter von Projekte.base"],
    "vault:read": ["Zeig mir den Inhalt von Projekte/Plan.md", "Lies mir die Notiz über das Meeting vor", "Öffne die Datei [[Wochenplan]]", "Was steht in der Notiz drin?", "Fasse die Notiz Ideen.md zusammen"],
    "vault:write": ["Erstelle eine neue Notiz namens Reise.md", "Leg eine Datei im Ordner Projekte an", "Schreib eine neue Notiz mit diesem Text", "Überschreibe die Notiz komplett", "Neue Notiz anlegen"],
    "vault:append": ["Füge diesen Satz am Ende der Notiz hinzu", "Hänge eine Zeile an die Notiz an", "Ergänze die Notiz um einen Punkt", "Schreib das noch unten in Inbox.md dazu", "Trag das in die Notiz ein"],
    "vault:edit": ["Ersetze in der Notiz \"alt\" durch \"neu\"", "Ändere den Text in der Notiz", "Korrigiere den Tippfehler in Ideen.md", "Ersetze das Wort durch ein anderes", "Tausche den Satz in der Notiz aus", "Bearbeite die Zeile in der Notiz"],
    "vault:list": ["Liste alle Notizen im Ordner auf", "Welche Dateien liegen im Ordner Projekte?", "Zeig mir, was im Ordner ist", "Wie viele Notizen habe ich?", "Übersicht über meine Dateien"],
    "vault:search": ["Gibt es bei mir Notizen zu diesem Thema?", "Suche in meinen Notizen nach dem Wort", "Finde Notizen, in denen das Thema vorkommt", "Wo habe ich darüber geschrieben?", "Durchsuche den Vault nach einem Begriff", "In welcher Notiz erwähne ich das?"],
    "vault:semantic_search": ["Finde Notizen, die inhaltlich zu dem Thema passen", "Was habe ich mir zu dieser Idee gedacht?", "Ähnliche Notizen zu diesem Thema"],
    "vault:move": ["Verschiebe die Notiz in den Ordner Archiv", "Benenne die Datei um", "Gib der Notiz einen neuen Namen", "Leg die Notiz in einen anderen Ordner", "Archiviere die Notiz"],
    "vault:delete": ["Lösche die Notiz", "Entferne die Datei Entwurf.md", "Die Notiz kann in den Papierkorb", "Wirf die alte Notiz weg", "Notiz löschen"],
    "note:active": ["Fasse die aktuelle Notiz zusammen", "Worum geht es in dieser Notiz?", "Die Notiz, die gerade geöffnet ist", "Was sehe ich hier gerade?"],
    "note:selection": ["Erkläre den markierten Abschnitt", "Formuliere die Auswahl um", "Der ausgewählte Text", "Was ich gerade markiert habe", "Kürze die Markierung"],
    "note:outline": ["Gliederung der Notiz", "Zeig die Überschriften der Notiz", "Welche Abschnitte hat Projekte/Plan.md?", "Inhaltsverzeichnis der Notiz", "Struktur der Notiz"],
    "tags:list": ["Welche Tags gibt es in meinem Vault?", "Liste alle Tags auf", "Meine meistgenutzten Schlagwörter", "Zeig meine Tags"],
    "tags:notes": ["Notizen mit dem Tag #arbeit", "Welche Notizen sind mit #idee getaggt?", "Zeig alles mit dem Schlagwort Projekt", "Alle Notizen mit #rezept"],
    "links:backlinks": ["Welche Notizen verweisen auf [[Start]]?", "Rückverweise auf diese Notiz", "Backlinks der Notiz", "Wo wird die Notiz verlinkt?"],
    "links:outgoing": ["Welche Links enthält die Notiz?", "Worauf verlinkt Home.md?", "Ausgehende Links der Notiz", "Kaputte Links in der Notiz"],
    "frontmatter:get": ["Welchen Status hat das Projekt in den Eigenschaften?", "Zeig das Frontmatter von Projekte/Plan.md", "Metadaten der Notiz", "Welche Eigenschaften hat die Notiz?", "Wann ist das Projekt fällig?", "Summe der Eigenschaft Preis über alle Notizen"],
    "frontmatter:set": ["Setze den Status der Notiz auf erledigt", "Ändere die Eigenschaft Priorität", "Trag ein Fälligkeitsdatum in die Eigenschaften ein", "Markiere das Projekt als abgeschlossen", "Frontmatter aktualisieren"],
    "daily:get": ["Was steht in meiner Tagesnotiz von heute?", "Zeig mir meinen Tagebucheintrag von gestern", "Was habe ich am 2026-11-18 gemacht?", "Öffne die heutige Tagesnotiz"],
    "daily:append": ["Schreib ins heutige Tagebuch, dass ich joggen war", "Füge das zur Tagesnotiz von heute hinzu", "Notiere im Journal, dass das Treffen gut lief", "Trag in mein Tagebuch ein"],
    "tasks:list": ["Welche Aufgaben stehen noch an?", "Zeig meine To-dos", "Was muss ich noch erledigen?", "Liste der unerledigten Aufgaben", "Welche Aufgaben habe ich schon abgehakt?"],
    "tasks:add": ["Neue Aufgabe: Fenster putzen", "Füge eine Aufgabe hinzu", "Neues To-do anlegen", "Erinnere mich ans Einkaufen", "Setz das auf meine Aufgabenliste", "Ich muss noch den Arzt anrufen"],
    "tasks:complete": ["Markiere die Aufgabe als erledigt", "Die Aufgabe ist fertig, hak sie ab", "Streich das To-do von der Liste", "Ich habe die Aufgabe erledigt"],
    "clock:now": ["Wie viel Uhr ist es?", "Welcher Tag ist heute?", "Das heutige Datum", "Welche Kalenderwoche haben wir?", "Wie spät?"],
    "memory:save": ["Merk dir, dass ich Kaffee ohne Zucker trinke", "Vergiss nicht, dass Anna Geburtstag im Mai hat", "Speicher dir das für später", "Behalte im Kopf, dass ich metrische Einheiten mag"],
    "memory:recall": ["Was weißt du über mich?", "Was hast du dir über mich gemerkt?", "Weißt du noch, was ich dir über Anna gesagt habe?", "Erinnerst du dich an meine Vorlieben?", "Was habe ich dir erzählt?"],
    "web:fetch": ["Lies die Webseite https://example.com", "Was steht auf dieser Seite im Internet?", "Hol den Artikel von der URL", "Fasse den Link zusammen"],
  },
};
